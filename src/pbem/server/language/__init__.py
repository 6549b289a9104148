"""The command language: commands as objects, reading a command's words
into them, the registry that names each command once, the help subjects,
and what a command produces (messages)."""
