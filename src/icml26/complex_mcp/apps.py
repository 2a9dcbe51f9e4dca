"""The stateful tools of the four apps, as plain methods on a :class:`Sandbox` (``servers`` serves them).

Every tool returns ``{"status": "ok" | "failed", "output": ...}`` like the reference's apps; a failure is a
result the agent must read, never an exception. Seeded failures (ours, after the paper's design):

- **network**: each call to a Chat, Shop or Flight tool first draws from the episode's failure stream; with
  probability ``failure_rate`` the link drops (nothing happens) and stays down until ``system_reconnect``;
- **privilege gate**: paying actions (``shop_checkout``, ``flight_book``) need the app's privilege, which
  the seed grants to each gated app or not; ``system_check_privilege`` tells, ``system_grant_privilege``
  grants;
- **payment password**: paying actions need ``system_get_payment_password``'s answer; a balance short of
  the price fails.

The failure stream is ``random.Random`` of (world seed, failure seed): the same seed and the same sequence
of calls give the same failures.
"""

from __future__ import annotations

import random
from typing import Any

from .world import APPS, GATED, World

NETWORK_APPS = ("chat", "shop", "flight")
RECONNECT_HINT = "call system_reconnect, then retry"


Result = dict[str, Any]  # {"status": ..., "output": ...}: an object, so MCP sends it as structured content


def ok(output) -> Result:
    return {"status": "ok", "output": output}


def failed(output: str) -> Result:
    return {"status": "failed", "output": output}


def error(output: str) -> Result:
    """The call itself was invalid (unknown tool, bad arguments); ``failed`` is a tool's own refusal."""
    return {"status": "error", "output": output}


class Sandbox:
    """The tools over one :class:`World`. ``reset`` starts an episode; tools mutate ``self.world``."""

    def __init__(self, world: World, failure_rate: float = 0.0, failure_seed: int = 0):
        self.reset(world, failure_rate, failure_seed)

    def reset(self, world: World, failure_rate: float, failure_seed: int) -> None:
        if not 0 <= failure_rate < 1:
            raise ValueError(f"failure_rate must be in [0, 1), got {failure_rate}")
        self.world, self.failure_rate = world, failure_rate
        self.failures = random.Random(f"{world.seed}/{failure_seed}")
        rng = random.Random(f"{world.seed}/privileges")
        world.privileges = {app for app in GATED if rng.random() < 0.5}

    def network(self, app: str) -> Result | None:
        """A network failure for this call, or None. Draws exactly one number per networked call."""
        if app not in NETWORK_APPS:
            return None
        if not self.world.online:
            return failed(f"network error: {app} is offline; {RECONNECT_HINT}")
        if self.failures.random() < self.failure_rate:
            self.world.online = False
            return failed(f"network error: connection to {app} lost; {RECONNECT_HINT}")
        return None

    # System -------------------------------------------------------------------------------------------
    def system_get_time(self) -> Result:
        """Current date and time of the shared clock."""
        return ok(self.world.timestamp())

    def system_check_network(self) -> Result:
        """Whether the apps are reachable."""
        return ok("online" if self.world.online else "offline")

    def system_reconnect(self) -> Result:
        """Restore the network link to the apps after a network error."""
        self.world.online = True
        return ok("reconnected")

    def system_check_privilege(self, app: str) -> Result:
        """Whether paying actions are allowed in an app (shop or flight)."""
        if app not in APPS:
            return failed(f"unknown app {app!r}; apps: {', '.join(APPS)}")
        return ok(app in self.world.privileges)

    def system_grant_privilege(self, app: str) -> Result:
        """Allow paying actions in an app (shop or flight)."""
        if app not in GATED:
            return failed(f"app {app!r} has no privilege to grant; gated apps: {', '.join(GATED)}")
        self.world.privileges.add(app)
        return ok(f"privilege granted for {app}")

    def system_get_payment_password(self) -> Result:
        """The payment password that paying actions require."""
        return ok(self.world.payment_password)

    def system_get_balance(self) -> Result:
        """The wallet balance shared by the shop and flight apps."""
        return ok(round(self.world.balance, 2))

    # Chat ---------------------------------------------------------------------------------------------
    def chat_list_contacts(self) -> Result:
        """List every contact with its id and name."""
        return self.network("chat") or ok([{"cid": c, "name": v["name"]} for c, v in self.world.contacts.items()])

    def chat_find_contact(self, name: str) -> Result:
        """Find a contact's id by name."""
        if error := self.network("chat"):
            return error
        found = [c for c, v in self.world.contacts.items() if v["name"].lower() == name.strip().lower()]
        return ok(found[0]) if found else failed(f"no contact named {name!r}")

    def chat_send_message(self, cid: str, content: str) -> Result:
        """Send a text message to a contact."""
        if error := self.network("chat"):
            return error
        if cid not in self.world.contacts:
            return failed(f"no contact with id {cid!r}")
        mid = self.world.new_id("mid")
        self.world.messages.append({"mid": mid, "to": cid, "content": content, "timestamp": self.world.timestamp()})
        self.world.tick()
        return ok({"mid": mid})

    def chat_list_messages(self, cid: str) -> Result:
        """List the messages sent to a contact."""
        return self.network("chat") or ok([m for m in self.world.messages if m["to"] == cid])

    # Shop ---------------------------------------------------------------------------------------------
    def shop_list_categories(self) -> Result:
        """List the shop categories."""
        return self.network("shop") or ok(sorted({s["category"] for s in self.world.shops.values()}))

    def shop_list_shops(self, category: str) -> Result:
        """List the shops of a category with their ids."""
        if error := self.network("shop"):
            return error
        return ok([{"sid": sid, "name": s["name"]} for sid, s in self.world.shops.items() if s["category"] == category])

    def shop_list_items(self, sid: str) -> Result:
        """List a shop's items with price and stock."""
        if error := self.network("shop"):
            return error
        shop = self.world.shops.get(sid)
        if shop is None:
            return failed(f"no shop with id {sid!r}")
        return ok([{"tid": tid, **item, "stock": shop["stock"][tid]} for tid, item in shop["items"].items()])

    def shop_add_to_cart(self, sid: str, tid: str, count: int) -> Result:
        """Put a number of one shop item into the cart."""
        if error := self.network("shop"):
            return error
        shop = self.world.shops.get(sid)
        if shop is None or tid not in shop["items"]:
            return failed(f"no item {tid!r} in shop {sid!r}")
        if count < 1 or shop["stock"][tid] < count:
            return failed(f"cannot add {count}: shop {shop['name']!r} has {shop['stock'][tid]} in stock")
        caid = self.world.new_id("caid")
        self.world.cart.append({"caid": caid, "sid": sid, "tid": tid, "count": count})
        return ok({"caid": caid})

    def shop_view_cart(self) -> Result:
        """Show the cart's lines with their prices, and the total."""
        if error := self.network("shop"):
            return error
        shops = self.world.shops
        lines = [
            {**c, "price": round(shops[c["sid"]]["items"][c["tid"]]["price"] * c["count"], 2)} for c in self.world.cart
        ]
        return ok({"lines": lines, "total": self._cart_total()})

    def shop_remove_from_cart(self, caid: str) -> Result:
        """Remove one line from the cart."""
        if error := self.network("shop"):
            return error
        kept = [line for line in self.world.cart if line["caid"] != caid]
        if len(kept) == len(self.world.cart):
            return failed(f"no cart line {caid!r}")
        self.world.cart = kept
        return ok("removed")

    def shop_checkout(self, payment_password: str) -> Result:
        """Pay for everything in the cart from the wallet."""
        if error := self.network("shop"):
            return error
        if problem := self._payment_problem("shop", payment_password, self._cart_total()):
            return problem
        if not self.world.cart:
            return failed("the cart is empty")
        for line in self.world.cart:
            if self.world.shops[line["sid"]]["stock"][line["tid"]] < line["count"]:
                return failed(f"not enough stock left for cart line {line['caid']}")
        for line in self.world.cart:
            self.world.shops[line["sid"]]["stock"][line["tid"]] -= line["count"]
        total = self._cart_total()
        self.world.balance = round(self.world.balance - total, 2)
        oid = self.world.new_id("oid")
        self.world.orders.append(
            {"oid": oid, "total": total, "lines": self.world.cart, "timestamp": self.world.timestamp()}
        )
        self.world.cart = []
        self.world.tick()
        return ok({"oid": oid, "total": total})

    def _cart_total(self) -> float:
        shops = self.world.shops
        return round(sum(shops[c["sid"]]["items"][c["tid"]]["price"] * c["count"] for c in self.world.cart), 2)

    def _payment_problem(self, app: str, password: str, amount: float) -> Result | None:
        if app not in self.world.privileges:
            return failed(f"permission denied: paying in {app} needs its privilege (system_grant_privilege)")
        if password != self.world.payment_password:
            return failed("payment password incorrect")
        if amount > self.world.balance + 1e-9:
            return failed(f"insufficient balance: {self.world.balance:.2f} < {amount:.2f}")
        return None

    # Flight -------------------------------------------------------------------------------------------
    def flight_search(self, origin: str, destination: str) -> Result:
        """Find flights between two airports departing after now, with price and free seats."""
        if error := self.network("flight"):
            return error
        now = self.world.timestamp()
        found = [
            {"fid": fid, **f}
            for fid, f in self.world.flights.items()
            if f["origin"] == origin.upper() and f["destination"] == destination.upper() and f["departure"] > now
        ]
        return ok(found)

    def flight_book(self, fid: str, passenger: str, payment_password: str) -> Result:
        """Book a seat on a flight for a contact (by contact id) and pay from the wallet."""
        if error := self.network("flight"):
            return error
        flight = self.world.flights.get(fid)
        if flight is None:
            return failed(f"no flight {fid!r}")
        if passenger not in self.world.contacts:
            return failed(f"no contact with id {passenger!r}")
        if flight["seats"] < 1:
            return failed(f"flight {fid} is full")
        if problem := self._payment_problem("flight", payment_password, flight["price"]):
            return problem
        flight["seats"] -= 1
        self.world.balance = round(self.world.balance - flight["price"], 2)
        bid = self.world.new_id("bid")
        self.world.bookings.append(
            {
                "bid": bid,
                "fid": fid,
                "passenger": passenger,
                "price": flight["price"],
                "timestamp": self.world.timestamp(),
            }
        )
        self.world.tick()
        return ok({"bid": bid})

    def flight_list_bookings(self) -> Result:
        """List the bookings made."""
        return self.network("flight") or ok(self.world.bookings)


TOOLS = {app: [name for name in vars(Sandbox) if name.startswith(f"{app}_")] for app in APPS}
"""The stateful tools of each app, by name (each is a method of :class:`Sandbox`)."""
