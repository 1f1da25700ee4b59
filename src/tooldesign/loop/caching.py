"""What a re-sent prefix costs once the provider caches it: the course's one home for cache prices.

Lessons 03, 13 and 16 count tokens *sent*. With prompt caching, the part of a request that
repeats the previous one word for word (tools, then system, then messages, in that order) is read
from the cache at a fraction of the base input price; only what is new is paid at the full price,
and writing a prefix into the cache may cost a little more than the full price. The multipliers
below are the providers' published figures, each with its source; the arithmetic is ours.

The estimate ignores what the providers add on top: a minimum cacheable length per model, a cache
lifetime (5 minutes by default at Anthropic), and OpenAI's per-model rates. It shows the shape of
the saving, not a bill.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CachePrices:
    """Multiples of the base input price: a token read from the cache, a token written to it."""

    provider: str
    read: float
    write: float
    source: str


ANTHROPIC_CACHE = CachePrices(
    "Anthropic",
    read=0.1,
    write=1.25,
    source=(
        "Anthropic, Prompt caching and Pricing (Claude API documentation), "
        "https://platform.claude.com/docs/en/build-with-claude/prompt-caching, read 2 December 2026: "
        "cache hits 0.1 times the base input price, 5-minute cache writes 1.25 times"
    ),
)
OPENAI_CACHE = CachePrices(
    "OpenAI",
    read=0.05,
    write=1.0,
    source=(
        "OpenAI, Prompt caching (API guide), https://developers.openai.com/api/docs/guides/prompt-caching, "
        "read 2 December 2026: cached input 'discounted up to 95%' (the best case; each model's rate is on "
        "the pricing page), caching on by default"
    ),
)
CACHE_PRICES: tuple[CachePrices, ...] = (ANTHROPIC_CACHE, OPENAI_CACHE)


@dataclass(frozen=True)
class CacheSplit:
    """One request's input tokens: how many were sent, and how many of those came from the cache."""

    sent: int
    from_cache: int

    @property
    def full_price(self) -> int:
        """Tokens that were not read from the cache: paid at the full price (or the write price)."""
        return self.sent - self.from_cache

    def cost(self, prices: CachePrices) -> float:
        """Input cost in units of one full-price token; new tokens are written to the cache for the next step."""
        return self.full_price * prices.write + self.from_cache * prices.read


def cache_row(splits: Sequence[CacheSplit], prices: CachePrices = ANTHROPIC_CACHE) -> dict:
    """Totals over a loop: sent, read from the cache, at full price, and the input cost with and without."""
    sent = sum(s.sent for s in splits)
    cached = sum(s.from_cache for s in splits)
    return {
        "tokens sent": sent,
        "read from cache": cached,
        "at full price": sent - cached,
        f"cost with {prices.provider} cache (full-price tokens)": round(sum(s.cost(prices) for s in splits)),
    }
