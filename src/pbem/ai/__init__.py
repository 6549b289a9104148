"""The AI: Monte Carlo tree search over the games' search positions.

It imports only `games/`: a position comes from `State.search_position()`,
and what the search finds is given back as canonical move texts, so the
server plays a bot's move exactly as it plays a person's.
"""
