"""The read side: a board as the doors show it (read once per change), the
web's lists, a board's record to keep, and the board pictures. Reading
here changes nothing."""
