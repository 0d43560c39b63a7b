"""Base rounds of whist tournaments Wh(v), found by `python -m tournament.engine.whist_search`. Generated file.

Each entry: the abelian group's moduli (an element is a mixed-radix index 0..|G|-1, first modulus fastest), whether
the tournament has a fixed point infinity (written as |G|), and the tables of the base round as (N, E, S, W):
N-S and E-W are the partnerships. Developing the base round by every element of the group gives the tournament.
"""

WHIST: dict[int, tuple[tuple[int, ...], bool, tuple[tuple[int, int, int, int], ...]]] = {}
