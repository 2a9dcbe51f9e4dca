"""Templated tasks at three levels, each with the program that solves it.

A task is an instruction plus a *program*: a generator that yields :class:`Step` (an intent in words, the
tool that serves it, arguments, and whether the step only verifies) and receives each step's result, so it
decides as it goes (which shop is cheapest, whether the wallet can pay). ``careful=True`` is the oracle
plan; ``careful=False`` skips the verification steps and assumes instead (first listed is cheapest, stock
and balance suffice, the privilege is granted), the paper's "over-confidence". The gold final state is the
careful program run directly on a copy of the world without failures (:func:`gold_state`).

Levels (ours, after the paper's): 1 = one app (System aside), 2 = two apps, 3 = three apps with a condition
on the shared wallet. Parameters are drawn with ``random.Random`` from the world, so every task is solvable.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from .apps import Sandbox
from .world import World


@dataclass(frozen=True)
class Step:
    intent: str
    tool: str
    arguments: dict = field(default_factory=dict)
    verify: bool = False


Program = Generator[Step, dict, None]


@dataclass(frozen=True)
class Task:
    template: str
    level: int
    instruction: str
    params: dict
    program: Callable[[dict, bool], Program]
    setup: Callable[[World], None] | None = None

    def gold_tools(self, world: World) -> list[str]:
        """The tools the careful program calls on ``world`` (the exposure's "gold" set)."""
        return sorted({step.tool for step in run_direct(self, copy.deepcopy(world))[1]})


def output(result: Any, default: Any = None) -> Any:
    """A result's ``output`` when its status is ok, else ``default`` (results come from untrusted tools)."""
    if isinstance(result, dict) and result.get("status") == "ok":
        return result.get("output", default)
    return default


def _rows(result: Any) -> list[dict]:
    rows = output(result, [])
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


# Reusable sub-programs ------------------------------------------------------------------------------------
def find_contact(name: str) -> Generator[Step, dict, Any]:
    result = yield Step(f"look up the chat contact id of {name}", "chat_find_contact", {"name": name})
    return output(result)


def pay_setup(app: str, careful: bool) -> Generator[Step, dict, Any]:
    """Privilege (checked only when careful) and the payment password; returns the password."""
    if careful:
        granted = yield Step(
            f"check whether paying in the {app} app is allowed", "system_check_privilege", {"app": app}, verify=True
        )
        if output(granted) is not True:
            yield Step(f"allow paying in the {app} app", "system_grant_privilege", {"app": app})
    result = yield Step("get the wallet payment password", "system_get_payment_password")
    return output(result, "")


def balance(careful: bool) -> Generator[Step, dict, float]:
    if not careful:
        return float("inf")  # over-confidence: assume the wallet can pay
    result = yield Step("read the wallet balance", "system_get_balance", verify=True)
    value = output(result)
    return float(value) if isinstance(value, (int, float)) else 0.0


def cheapest_item(category: str, item: str, careful: bool) -> Generator[Step, dict, tuple | None]:
    """(price, sid, tid) of the cheapest in-stock ``item`` among ``category`` shops; not careful: the first
    shop that lists it, stock unchecked."""
    shops = yield Step(f"list the {category} shops", "shop_list_shops", {"category": category})
    best = None
    for shop in _rows(shops):
        items = yield Step(
            f"list the items, prices and stock of shop {shop.get('name')}",
            "shop_list_items",
            {"sid": shop.get("sid")},
            verify=careful and best is not None,
        )
        for row in _rows(items):
            in_stock = not careful or row.get("stock", 0) > 0
            if row.get("name") == item and in_stock and (best is None or row["price"] < best[0]):
                best = (row["price"], shop.get("sid"), row.get("tid"))
        if best is not None and not careful:
            break
    return best


def buy(category: str, item: str, careful: bool) -> Generator[Step, dict, float | None]:
    """Buy one cheapest ``item``; returns the total paid, or None."""
    best = yield from cheapest_item(category, item, careful)
    if best is None:
        return None
    price, sid, tid = best
    if (yield from balance(careful)) < price:
        return None
    yield Step(f"put one {item} into the shopping cart", "shop_add_to_cart", {"sid": sid, "tid": tid, "count": 1})
    password = yield from pay_setup("shop", careful)
    paid = yield Step("pay for the shopping cart", "shop_checkout", {"payment_password": password})
    total = output(paid, {})
    return total.get("total") if isinstance(total, dict) else None


def book(origin: str, destination: str, cid: Any, careful: bool) -> Generator[Step, dict, str | None]:
    """Book the cheapest flight with a free seat; returns its id, or None."""
    found = yield Step(
        f"search flights from {origin} to {destination}",
        "flight_search",
        {"origin": origin, "destination": destination},
    )
    flights = [f for f in _rows(found) if not careful or f.get("seats", 0) > 0]
    if not flights:
        return None
    flight = min(flights, key=lambda f: (f.get("price", 0), f.get("departure", ""))) if careful else flights[0]
    if (yield from balance(careful)) < flight.get("price", 0):
        return None
    password = yield from pay_setup("flight", careful)
    booked = yield Step(
        f"book flight {flight.get('fid')} for the passenger and pay",
        "flight_book",
        {"fid": flight.get("fid"), "passenger": cid, "payment_password": password},
    )
    return flight.get("fid") if output(booked) is not None else None


# Templates ------------------------------------------------------------------------------------------------
def message_program(p: dict, careful: bool) -> Program:
    cid = yield from find_contact(p["name"])
    yield Step(f"send a chat message to {p['name']}", "chat_send_message", {"cid": cid, "content": p["text"]})


def cart_program(p: dict, careful: bool) -> Program:
    shops = yield Step(f"list the {p['category']} shops", "shop_list_shops", {"category": p["category"]})
    sid = next((s.get("sid") for s in _rows(shops) if s.get("name") == p["shop"]), None)
    count = p["count"]
    if careful:
        items = yield Step(
            f"list the items, prices and stock of shop {p['shop']}", "shop_list_items", {"sid": sid}, verify=True
        )
        row = next((r for r in _rows(items) if r.get("name") == p["item"]), {})
        count, tid = min(count, row.get("stock", 0)), row.get("tid")
    else:
        items = yield Step(f"list the items of shop {p['shop']}", "shop_list_items", {"sid": sid})
        tid = next((r.get("tid") for r in _rows(items) if r.get("name") == p["item"]), None)
    if count > 0:
        yield Step(
            f"put {count} {p['item']} into the shopping cart",
            "shop_add_to_cart",
            {"sid": sid, "tid": tid, "count": count},
        )


def cheapest_program(p: dict, careful: bool) -> Program:
    yield from buy(p["category"], p["item"], careful)


def buy_and_tell_program(p: dict, careful: bool) -> Program:
    total = yield from buy(p["category"], p["item"], careful)
    cid = yield from find_contact(p["name"])
    text = f"The {p['item']} cost {total:.2f}." if total is not None else f"I could not buy the {p['item']}."
    yield Step(f"send a chat message to {p['name']}", "chat_send_message", {"cid": cid, "content": text})


def flight_program(p: dict, careful: bool) -> Program:
    cid = yield from find_contact(p["name"])
    fid = yield from book(p["origin"], p["destination"], cid, careful)
    if fid is None:
        yield Step(
            f"send a chat message to {p['name']}", "chat_send_message", {"cid": cid, "content": "No flight booked."}
        )


def trip_program(p: dict, careful: bool) -> Program:
    cid = yield from find_contact(p["name"])
    fid = yield from book(p["origin"], p["destination"], cid, careful)
    if fid is not None and (yield from balance(careful)) >= p["reserve"]:
        yield from buy(p["category"], p["item"], careful)
    text = f"Booked {fid}." if fid is not None else "No flight booked."
    yield Step(f"send a chat message to {p['name']}", "chat_send_message", {"cid": cid, "content": text})


def cart_checkout_program(p: dict, careful: bool) -> Program:
    password = yield from pay_setup("shop", careful)
    if careful:
        cart = output((yield Step("show the shopping cart and its total", "shop_view_cart", verify=True)), {})
        wallet = yield from balance(careful)
        lines = [line for line in cart.get("lines", []) if isinstance(line, dict)] if isinstance(cart, dict) else []
        while lines and sum(line.get("price", 0) for line in lines) > wallet + 1e-9:
            dearest = max(lines, key=lambda line: (line.get("price", 0), str(line.get("caid"))))
            yield Step("remove a line from the shopping cart", "shop_remove_from_cart", {"caid": dearest["caid"]})
            lines.remove(dearest)
    paid = yield Step("pay for the shopping cart", "shop_checkout", {"payment_password": password})
    cid = yield from find_contact(p["name"])
    total = output(paid, {})
    text = f"Paid {total['total']:.2f}." if isinstance(total, dict) and "total" in total else "Nothing paid."
    yield Step(f"send a chat message to {p['name']}", "chat_send_message", {"cid": cid, "content": text})


def _fill_cart(lines: list[tuple[str, str, int]]) -> Callable[[World], None]:
    def setup(world: World) -> None:
        for sid, tid, count in lines:
            world.cart.append({"caid": world.new_id("caid"), "sid": sid, "tid": tid, "count": count})

    return setup


TEMPLATES = {  # name -> (level, program)
    "message": (1, message_program),
    "cart": (1, cart_program),
    "cheapest": (1, cheapest_program),
    "buy_and_tell": (2, buy_and_tell_program),
    "flight": (2, flight_program),
    "trip": (3, trip_program),
    "cart_checkout": (3, cart_checkout_program),
}
LEVELS = {level: [name for name, (lv, _) in TEMPLATES.items() if lv == level] for level in (1, 2, 3)}


def make_task(world: World, template: str, index: int) -> Task:
    """Task ``index`` of ``template`` on ``world`` (parameters drawn from the world and the index)."""
    rng = random.Random(f"{world.seed}/{template}/{index}")
    level, program = TEMPLATES[template]
    names = sorted(c["name"] for c in world.contacts.values())
    shops = [(sid, s) for sid, s in world.shops.items()]
    _, shop = rng.choice(shops)
    item = rng.choice(sorted({i["name"] for i in shop["items"].values()}))
    routes = sorted({(f["origin"], f["destination"]) for f in world.flights.values()})
    origin, destination = rng.choice(routes)
    p: dict = {"name": rng.choice(names)}
    setup = None
    if template == "message":
        p["text"] = rng.choice(
            [
                "See you at the station at noon.",
                "Running ten minutes late, sorry!",
                "Can you call me back tonight?",
                "Happy birthday, have a great day!",
            ]
        )
        instruction = f"Send the chat message '{p['text']}' to {p['name']}."
    elif template == "cart":
        p.update(category=shop["category"], shop=shop["name"], item=item, count=rng.randint(2, 12))
        instruction = (
            f"Put {p['count']} {item} from the {shop['category']} shop {shop['name']} into the cart, or as "
            f"many as it has in stock if fewer."
        )
    elif template in ("cheapest", "buy_and_tell"):
        p.update(category=shop["category"], item=item)
        instruction = f"Buy the cheapest {item} available in any {shop['category']} shop."
        if template == "buy_and_tell":
            instruction += f" Then tell {p['name']} in a chat message what it cost: 'The {item} cost <price>.'"
    elif template == "flight":
        p.update(origin=origin, destination=destination)
        instruction = (
            f"Book the cheapest flight with a free seat from {origin} to {destination} for {p['name']}. If "
            f"none can be booked or the wallet cannot pay, send {p['name']} 'No flight booked.'"
        )
    elif template == "trip":
        p.update(
            origin=origin,
            destination=destination,
            category=shop["category"],
            item=item,
            reserve=float(rng.randrange(100, 900, 50)),
        )
        instruction = (
            f"Book the cheapest flight with a free seat from {origin} to {destination} for {p['name']}; if "
            f"at least {p['reserve']:.0f} is then left in the wallet, also buy the cheapest {item} of "
            f"the {shop['category']} shops. Finally message {p['name']} 'Booked <flight id>.' (or 'No "
            f"flight booked.')."
        )
    else:  # cart_checkout
        lines = []
        stocked = [
            (line_sid, tid, stock)
            for line_sid, line_shop in shops
            for tid, stock in line_shop["stock"].items()
            if stock > 0
        ]
        for line_sid, tid, stock in rng.sample(stocked, k=3):  # lines the shops can serve
            lines.append((line_sid, tid, rng.randint(1, min(3, stock))))
        setup = _fill_cart(lines)
        instruction = (
            f"Check out the shopping cart. If the wallet cannot pay for all of it, first remove the most "
            f"expensive line until it can. Then tell {p['name']} 'Paid <total>.'"
        )
    return Task(template, level, instruction, p, program, setup)


def prepare(world: World, task: Task) -> World:
    """The episode's initial world: a copy of ``world`` after the task's setup."""
    world = copy.deepcopy(world)
    if task.setup is not None:
        task.setup(world)
    return world


def run_direct(task: Task, world: World, careful: bool = True) -> tuple[World, list[Step]]:
    """Run the program straight on the sandbox (no MCP, no failures): the gold run and the tests' oracle."""
    sandbox = Sandbox(world, failure_rate=0.0)
    program, steps, result = task.program(task.params, careful), [], None
    try:
        step = next(program)
        while True:
            steps.append(step)
            result = getattr(sandbox, step.tool)(**step.arguments)
            step = program.send(result)
    except StopIteration:
        pass
    return world, steps


def gold_state(task: Task, world: World) -> dict:
    return run_direct(task, copy.deepcopy(world))[0].snapshot()
