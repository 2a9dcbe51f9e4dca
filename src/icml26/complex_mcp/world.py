"""The sandbox world: four stateful apps sharing a clock, a wallet and a contact list, built from a seed.

Ours, after the paper's architecture (reference: AIDC-AI/complex-mcp, whose seven apps are larger): System
(the shared clock, the network link, per-app privileges, the payment password), Chat (contacts and
messages), Shop (shops, stock, a cart, orders) and Flight (flights from the clock's "now", bookings).
Interdependence: shop orders and flight bookings draw on one wallet and carry the clock's timestamps;
messages go to contacts who are also the flights' passengers. Everything is drawn with
``random.Random(seed)`` from the small corpora below, so a seed names one world exactly.

The world never touches the host: no file, socket or environment variable is read or written; state is
plain Python data, and :meth:`World.snapshot` is the JSON-like view the judge compares.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

FIRST_NAMES = [
    "Ada",
    "Bruno",
    "Chen",
    "Dana",
    "Emil",
    "Farah",
    "Gus",
    "Hana",
    "Ivo",
    "Jun",
    "Kira",
    "Luis",
    "Mona",
    "Nils",
    "Omar",
    "Pia",
    "Quinn",
    "Rosa",
    "Sami",
    "Tova",
]
SHOP_CORPUS = {  # category -> (shop names, (item, list price) pairs)
    "books": (
        ["Paper Lane", "Inkwell", "The Reading Room"],
        [("novel", 14.0), ("atlas", 32.0), ("cookbook", 21.0), ("notebook", 4.5), ("poetry", 11.0)],
    ),
    "electronics": (
        ["Volt", "Circuit City", "Bitshop"],
        [("charger", 19.0), ("headphones", 59.0), ("cable", 7.0), ("mouse", 24.0), ("keyboard", 45.0)],
    ),
    "grocery": (
        ["Green Basket", "Daily Fresh", "Corner Market"],
        [("coffee", 9.0), ("tea", 6.0), ("apples", 3.5), ("bread", 2.8), ("cheese", 7.5)],
    ),
    "sports": (
        ["Peak", "Stride", "Goal Post"],
        [("ball", 18.0), ("racket", 75.0), ("bottle", 12.0), ("socks", 8.0), ("cap", 15.0)],
    ),
}
AIRPORTS = ["AMS", "BCN", "BER", "CDG", "FCO", "LHR", "LIS", "MAD", "VIE", "ZRH"]
APPS = ("system", "chat", "shop", "flight")
GATED = ("shop", "flight")  # apps whose paying actions need a privilege granted first (System)
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"


@dataclass
class World:
    """One seeded world. Mutated only through the tools (``icml26.complex_mcp.servers``)."""

    seed: int
    now: datetime
    balance: float
    payment_password: str
    contacts: dict[str, dict] = field(default_factory=dict)  # cid -> {name, phone}
    messages: list[dict] = field(default_factory=list)  # {mid, to, content, timestamp}
    shops: dict[str, dict] = field(default_factory=dict)  # sid -> {name, category, items: {tid: {name, price}}, stock}
    cart: list[dict] = field(default_factory=list)  # {caid, sid, tid, count}
    orders: list[dict] = field(default_factory=list)  # {oid, total, lines, timestamp}
    flights: dict[str, dict] = field(default_factory=dict)  # fid -> {origin, destination, departure, price, seats}
    bookings: list[dict] = field(default_factory=list)  # {bid, fid, passenger, price, timestamp}
    privileges: set[str] = field(default_factory=set)
    online: bool = True
    counter: int = 0

    def new_id(self, prefix: str) -> str:
        """Ids are drawn from the world's own counter, so they depend on the seed and the call order only."""
        self.counter += 1
        return f"{prefix}_{self.counter:04d}"

    def snapshot(self) -> dict:
        """The state the judge compares (a deep copy: later calls cannot change it)."""
        return copy.deepcopy(
            {
                "wallet": {"balance": round(self.balance, 2)},
                "chat": {"contacts": self.contacts, "messages": self.messages},
                "shop": {"shops": self.shops, "cart": self.cart, "orders": self.orders},
                "flight": {"flights": self.flights, "bookings": self.bookings},
            }
        )

    def timestamp(self) -> str:
        return self.now.strftime("%Y-%m-%d %H:%M")

    def tick(self, minutes: int = 1) -> None:
        self.now += timedelta(minutes=minutes)


def build_world(seed: int) -> World:
    """The world of ``seed``: 8-12 contacts, 2-3 shops per category, 30-40 flights in the next three days."""
    rng = random.Random(seed)
    world = World(
        seed=seed,
        now=datetime(2026, 7, 1, 8, 0) + timedelta(minutes=rng.randrange(0, 24 * 60, 5)),
        balance=float(rng.randrange(300, 1500)),
        payment_password="".join(rng.choices(ALPHABET, k=6)),
    )
    for name in sorted(rng.sample(FIRST_NAMES, k=rng.randint(8, 12))):
        world.contacts[world.new_id("cid")] = {"name": name, "phone": f"+31 6{rng.randrange(10**7, 10**8)}"}
    for category, (names, items) in SHOP_CORPUS.items():
        for shop_name in sorted(rng.sample(names, k=rng.randint(2, 3))):
            stocked = rng.sample(items, k=rng.randint(3, len(items)))
            shop_items, stock = {}, {}
            for item, list_price in sorted(stocked):
                tid = world.new_id("tid")
                shop_items[tid] = {"name": item, "price": round(list_price * rng.uniform(0.7, 1.3), 2)}
                stock[tid] = rng.randint(0, 20)
            world.shops[world.new_id("sid")] = {
                "name": shop_name,
                "category": category,
                "items": shop_items,
                "stock": stock,
            }
    for _ in range(rng.randint(30, 40)):
        origin, destination = rng.sample(AIRPORTS, k=2)
        departure = world.now + timedelta(minutes=rng.randrange(60, 3 * 24 * 60, 15))
        world.flights[world.new_id("fid")] = {
            "origin": origin,
            "destination": destination,
            "departure": departure.strftime("%Y-%m-%d %H:%M"),
            "price": float(rng.randrange(49, 400)),
            "seats": rng.randint(0, 6),
        }
    return world
