"""What a re-sent prefix costs once the provider caches it: the course's one home for cache prices.

Lessons 03, 13 and 16 count tokens *sent*. With prompt caching, the part of a request that
repeats the previous one word for word (tools, then system, then messages, in that order) is read
from the cache at a fraction of the base input price; only what is new is paid at the full price,
and writing a prefix into the cache costs more than the full price at both providers below.

Prices are per model, never per provider: one provider's models differ (OpenAI's older models
read the cache at a quarter or half of the input price, its newest at a tenth; Anthropic's
largest at a twentieth or less). ``PRICES`` holds one row per model the course names, each with
the page it was read from and the date it was read; ``docs/currency.csv`` lists the same rows so
``make currency`` says when to read them again, and ``tests/test_currency.py`` keeps the two equal.

The estimate ignores what the providers add on top: a minimum cacheable length per model, the
cache lifetime (5 minutes by default at Anthropic; 1 hour costs more to write), higher rates for
long prompts (Anthropic's Haiku 5.5 above 100,000 tokens, OpenAI's GPT-6 Luna above 272,000), and
batch or priority tiers. It shows the shape of the saving, not a bill.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ModelPrice",
    "PRICES",
    "CachePrices",
    "CACHE_PRICES",
    "ANTHROPIC_CACHE",
    "OPENAI_CACHE",
    "CacheSplit",
    "price_of",
    "price_table",
    "cache_row",
    "dollar_row",
]


@dataclass(frozen=True)
class ModelPrice:
    """One model's input prices in US dollars per million tokens, as its provider's page gave them.

    ``cache_write`` is the price of a token written to the cache (Anthropic: a 5-minute write;
    ``cache_write_1h`` is the 1-hour one), ``cache_read`` of a token read from it. ``source`` is
    the page the figures were read from and ``read_on`` the date (ISO) they were read.
    """

    provider: str
    model: str
    input: float
    cache_write: float
    cache_read: float
    source: str
    read_on: str
    cache_write_1h: float | None = None
    note: str = ""

    @property
    def write_multiplier(self) -> float:
        return round(self.cache_write / self.input, 4)

    @property
    def read_multiplier(self) -> float:
        return round(self.cache_read / self.input, 4)

    def cache_prices(self) -> CachePrices:
        """The same row as multiples of the input price, the unit of ``CacheSplit.cost``."""
        return CachePrices(
            self.provider,
            read=self.read_multiplier,
            write=self.write_multiplier,
            source=f"{self.provider}, {self.model}: {self.source}, read {self.read_on}",
        )


# The course's default models (tooldesign.selection.config) and the small model each provider
# replaced; add a row here and in docs/currency.csv when a lesson names another model.
PRICES: tuple[ModelPrice, ...] = (
    ModelPrice(
        "Anthropic",
        "claude-haiku-5-5",
        input=0.10,
        cache_write=0.125,
        cache_write_1h=0.20,
        cache_read=0.01,
        source="https://platform.claude.com/docs/en/about-claude/pricing",
        read_on="2026-12-05",
        note="prompts up to 100,000 tokens; longer prompts cost five times as much",
    ),
    ModelPrice(
        "Anthropic",
        "claude-haiku-4-5",
        input=1.00,
        cache_write=1.25,
        cache_write_1h=2.00,
        cache_read=0.10,
        source="https://platform.claude.com/docs/en/about-claude/pricing",
        read_on="2026-12-05",
        note="a legacy model since Claude Haiku 5.5",
    ),
    ModelPrice(
        "OpenAI",
        "gpt-6-luna",
        input=0.10,
        cache_write=0.125,
        cache_read=0.01,
        source="https://developers.openai.com/api/docs/models/gpt-6-luna",
        read_on="2026-12-05",
        note="prompts up to 272,000 input tokens; cache writes 1.25 times the uncached input price",
    ),
)


def price_of(model: str) -> ModelPrice:
    """The row for ``model``; a model the table lacks gets a one-line error naming what to do."""
    for row in PRICES:
        if row.model == model:
            return row
    known = ", ".join(row.model for row in PRICES)
    raise KeyError(
        f"no cache prices for {model!r} (known: {known}); add a row to PRICES in tooldesign/loop/caching.py"
    )


def price_table(models: Sequence[str] = ()) -> list[dict]:
    """The rows a lesson shows: model, the three prices, the source and the date read."""
    rows = [price_of(m) for m in models] if models else list(PRICES)
    return [
        {
            "provider": p.provider,
            "model": p.model,
            "input $/MTok": p.input,
            "cache write $/MTok": p.cache_write,
            "cache read $/MTok": p.cache_read,
            "write x input": p.write_multiplier,
            "read x input": p.read_multiplier,
            "source": p.source,
            "read on": p.read_on,
        }
        for p in rows
    ]


@dataclass(frozen=True)
class CachePrices:
    """Multiples of the base input price: a token read from the cache, a token written to it."""

    provider: str
    read: float
    write: float
    source: str


# The multipliers of each provider's default model (tooldesign.selection.config; a test keeps them the
# same), for the lessons that count in full-price tokens.
ANTHROPIC_CACHE = price_of("claude-haiku-5-5").cache_prices()
OPENAI_CACHE = price_of("gpt-6-luna").cache_prices()
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

    def dollars(self, price: ModelPrice) -> float:
        """The same input cost in US dollars at ``price``: new tokens as cache writes, the rest as reads."""
        return (self.full_price * price.cache_write + self.from_cache * price.cache_read) / 1_000_000


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


def dollar_row(splits: Sequence[CacheSplit], price: ModelPrice, tasks: int = 1000) -> dict:
    """What ``tasks`` runs of a loop cost in input at ``price``, without a cache and with one (US dollars)."""
    sent = sum(s.sent for s in splits)
    return {
        "model": price.model,
        f"input of {tasks:,} tasks, no cache ($)": round(sent * price.input / 1_000_000 * tasks, 2),
        f"input of {tasks:,} tasks, cached ($)": round(sum(s.dollars(price) for s in splits) * tasks, 2),
    }
