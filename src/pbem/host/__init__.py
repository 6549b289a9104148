"""How `pbem serve` runs: the main process, its web and delivery processes,
the connections they admit, and their logging. It starts the doors (mail/,
web/) and the bot worker (bots/); nothing below it imports it."""
