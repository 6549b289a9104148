"""The mail door: commands arrive by e-mail (SMTP listener, `pbem receive`,
`pbem poll`), and the outbox is delivered by e-mail (Maildir or a relay)."""
