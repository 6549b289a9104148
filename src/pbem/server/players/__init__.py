"""Players: accounts and their passwords, the throttle on guessing them, and
ratings. The lowest of the server's domains: it knows no board command."""
