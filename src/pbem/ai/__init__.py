"""The AI: Monte Carlo tree search over the games' search positions.

It imports only `games/`, and of it only the package and the contract
(`games/base.py`): a position comes from `State.search_position()`, a
game's compiled tree, where it keeps one, from that position
(`CompiledTreePosition`), and what the search finds is given back as
canonical move texts, so the server plays a bot's move exactly as it
plays a person's.
"""
