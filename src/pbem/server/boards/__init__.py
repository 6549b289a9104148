"""A board's life from challenge to end: answering challenges, the plain
move's short path, queued moves and resigning, votes, hints, the periodic
job (nags, forfeits, clocks) and the end by the server's rules."""
