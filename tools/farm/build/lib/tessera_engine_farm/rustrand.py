"""tessera's deal generator, bit for bit: ``SmallRng`` of the Rust crate ``rand`` 0.10 on a 64-bit
machine (Xoshiro256++ seeded through SplitMix64) and its ``random_range(0..n)``.

``tessera selfplay blockudoku`` deals game ``i`` of a run seeded ``s`` from
``SmallRng::seed_from_u64(s * 0x9E3779B97F4A7C15 ^ i)`` (src/cli/selfplay.rs), three pieces a
round, each ``pieces[rng.random_range(0..len)]``. :func:`game_rng` and :meth:`SmallRng.below`
reproduce that, so a game played over the protocol meets exactly the hands selfplay deals it.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
GOLDEN = 0x9E3779B97F4A7C15
"""The odd constant selfplay multiplies its seed by (also SplitMix64's increment)."""


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class SmallRng:
    """Xoshiro256++ as ``rand::rngs::SmallRng`` on 64-bit targets."""

    def __init__(self, seed: int) -> None:
        """``SmallRng::seed_from_u64(seed)``: the state from four SplitMix64 outputs."""
        state = seed & MASK64
        words = []
        for _ in range(4):
            state = (state + GOLDEN) & MASK64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            words.append(z ^ (z >> 31))
        self.s = words

    def next_u64(self) -> int:
        s = self.s
        result = (_rotl((s[0] + s[3]) & MASK64, 23) + s[0]) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def next_u32(self) -> int:
        """The upper half of the next 64-bit output, as ``rand`` takes it."""
        return self.next_u64() >> 32

    def below(self, n: int) -> int:
        """``random_range(0..n)`` for ``usize`` n < 2^32: ``rand``'s biased Canon method on 32 bits
        (one widening multiply, a second one only when the low half is close to overflow)."""
        product = self.next_u32() * n
        result, low = product >> 32, product & MASK32
        if low > (-n & MASK32):
            carry = (self.next_u32() * n) >> 32
            result += (low + carry) > MASK32
        return result


def game_rng(seed: int, game: int) -> SmallRng:
    """The generator of game ``game`` of a selfplay run seeded ``seed``."""
    return SmallRng(((seed * GOLDEN) & MASK64) ^ game)
