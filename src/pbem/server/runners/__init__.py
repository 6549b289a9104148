"""What each command does: the runners of the account, board, open
challenge, standings and view commands, which dispatch.py calls. The
highest of the server's sub-packages: runners use every domain below."""
