"""What is mailed: board mails in pbmserv's form, the story of a game's
end, the stop line every mail ends with, the cap on replies to one
address, and subscriptions to boards one does not play on."""
