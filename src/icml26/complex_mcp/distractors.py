"""Stateless distractor tools: what makes the action space large (the paper's "tool retrieval saturation").

Ours, after the reference's stateless servers (math, units, strings): unit conversions between every pair
of units of six quantities, arithmetic and statistics, string utilities, and "look-alike" tools of apps
that are not in the world (mail, notes, calendar, hotel, taxi, ...), whose names and descriptions share
words with the real apps' tools (send, message, book, list, cart, ...). A look-alike answers ``ok`` with a
plausible output and changes nothing, so calling it instead of the right tool silently leaves the task
undone, which is how a retrieval mistake shows in the final state.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations

from .apps import Result, failed, ok


@dataclass(frozen=True)
class Tool:
    """A tool's name, description and function (its signature is the tool's parameter list)."""

    server: str
    name: str
    description: str
    function: Callable[..., dict]


UNITS = {  # quantity -> unit -> factor to the base unit (temperature is affine: handled apart)
    "length": {
        "meter": 1.0,
        "kilometer": 1000.0,
        "centimeter": 0.01,
        "millimeter": 0.001,
        "mile": 1609.344,
        "foot": 0.3048,
        "inch": 0.0254,
        "yard": 0.9144,
    },
    "mass": {
        "kilogram": 1.0,
        "gram": 0.001,
        "milligram": 1e-6,
        "pound": 0.45359237,
        "ounce": 0.028349523125,
        "tonne": 1000.0,
    },
    "volume": {"liter": 1.0, "milliliter": 0.001, "gallon": 3.785411784, "cup": 0.2365882365, "pint": 0.473176473},
    "speed": {"kmh": 1 / 3.6, "mph": 0.44704, "mps": 1.0, "knot": 0.514444},
    "duration": {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0, "week": 604800.0},
}
TEMPERATURE = {"celsius": (1.0, 0.0), "fahrenheit": (5 / 9, -32 * 5 / 9), "kelvin": (1.0, -273.15)}  # to C: a*x + b


def _signed(function: Callable[..., dict], parameters: dict[str, type]) -> Callable[..., dict]:
    """``function`` (taking ``**kwargs``) with an explicit signature, so MCP derives the tool's schema from it."""
    function.__signature__ = inspect.Signature(
        [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind) for name, kind in parameters.items()],
        return_annotation=Result,
    )
    function.__annotations__ = {**parameters, "return": Result}
    return function


def _unit_tools() -> list[Tool]:
    tools = []
    for quantity, factors in UNITS.items():
        for source, target in permutations(factors, 2):
            scale = factors[source] / factors[target]
            tools.append(
                Tool(
                    "units",
                    f"units_{source}_to_{target}",
                    f"Convert a {quantity} from {source}s to {target}s.",
                    _signed(lambda scale=scale, **a: ok(round(a["value"] * scale, 6)), {"value": float}),
                )
            )
    for source, target in permutations(TEMPERATURE, 2):
        (a1, b1), (a2, b2) = TEMPERATURE[source], TEMPERATURE[target]

        def convert(x, a1=a1, b1=b1, a2=a2, b2=b2):
            return ((a1 * x + b1) - b2) / a2

        tools.append(
            Tool(
                "units",
                f"units_{source}_to_{target}",
                f"Convert a temperature from {source} to {target}.",
                _signed(lambda convert=convert, **a: ok(round(convert(a["value"]), 6)), {"value": float}),
            )
        )
    return tools


def _guarded(function: Callable[..., float]) -> Callable[..., dict]:
    """A math tool whose errors are the tool's answer: a domain error, or a result that is not a finite number
    (``add(1e308, 1e308)`` overflows to inf, which JSON would carry as null), is ``failed``, never ``ok``."""

    def call(**arguments) -> dict:
        try:
            value = float(function(**arguments))
        except (ValueError, ZeroDivisionError, OverflowError, statistics.StatisticsError) as error:
            return failed(f"math error: {error}")
        if not math.isfinite(value):
            return failed(f"math error: the result is not a finite number ({value})")
        return ok(round(value, 9))

    return call


def _math_tools() -> list[Tool]:
    pair = {"a": float, "b": float}
    one = {"x": float}
    many = {"values": list[float]}
    specs = [
        ("add", "Add two numbers.", lambda a, b: a + b, pair),
        ("subtract", "Subtract b from a.", lambda a, b: a - b, pair),
        ("multiply", "Multiply two numbers.", lambda a, b: a * b, pair),
        ("divide", "Divide a by b.", lambda a, b: a / b, pair),
        ("power", "Raise a to the power b.", lambda a, b: math.pow(a, b), pair),
        ("modulo", "Remainder of a divided by b.", lambda a, b: math.fmod(a, b), pair),
        ("hypotenuse", "Length of the hypotenuse of a right triangle.", lambda a, b: math.hypot(a, b), pair),
        ("sqrt", "Square root of a number.", lambda x: math.sqrt(x), one),
        ("log", "Natural logarithm.", lambda x: math.log(x), one),
        ("exp", "Exponential of a number.", lambda x: math.exp(x), one),
        ("abs", "Absolute value.", lambda x: abs(x), one),
        ("floor", "Round down to an integer.", lambda x: math.floor(x), one),
        ("ceil", "Round up to an integer.", lambda x: math.ceil(x), one),
        ("sin", "Sine of an angle in radians.", lambda x: math.sin(x), one),
        ("cos", "Cosine of an angle in radians.", lambda x: math.cos(x), one),
        ("mean", "Mean of a list of numbers.", lambda values: statistics.fmean(values), many),
        ("median", "Median of a list of numbers.", lambda values: statistics.median(values), many),
        ("stdev", "Sample standard deviation of a list of numbers.", lambda values: statistics.stdev(values), many),
        ("minimum", "Smallest of a list of numbers.", lambda values: min(values), many),
        ("maximum", "Largest of a list of numbers.", lambda values: max(values), many),
        ("total", "Sum of a list of numbers.", lambda values: math.fsum(values), many),
    ]
    return [
        Tool("math", f"math_{name}", description, _signed(_guarded(function), parameters))
        for name, description, function, parameters in specs
    ]


def _string_tools() -> list[Tool]:
    text = {"text": str}
    specs = [
        ("upper", "Convert text to upper case.", str.upper),
        ("lower", "Convert text to lower case.", str.lower),
        ("title", "Capitalise every word of a text.", str.title),
        ("reverse", "Reverse a text.", lambda t: t[::-1]),
        ("length", "Number of characters in a text.", len),
        ("count_words", "Number of words in a text.", lambda t: len(t.split())),
        ("count_vowels", "Number of vowels in a text.", lambda t: sum(c in "aeiouAEIOU" for c in t)),
        ("strip", "Remove spaces at both ends of a text.", str.strip),
        ("slug", "Turn a text into a lower-case slug with dashes.", lambda t: "-".join(t.lower().split())),
        ("is_palindrome", "Whether a text reads the same backwards.", lambda t: t.lower() == t.lower()[::-1]),
    ]
    return [
        Tool("strings", f"strings_{name}", description, _signed(lambda f=f, **a: ok(f(a["text"])), text))
        for name, description, f in specs
    ]


LOOKALIKES = [  # (server, name, description, parameters): apps that are not in the world
    ("mail", "mail_send_email", "Send an email message to a recipient.", {"to": str, "content": str}),
    ("mail", "mail_list_inbox", "List the messages in the email inbox.", {}),
    ("mail", "mail_find_contact", "Find an email contact's address by name.", {"name": str}),
    ("notes", "notes_create_note", "Create a note with a title and content.", {"title": str, "content": str}),
    ("notes", "notes_list_notes", "List every note.", {}),
    ("calendar", "calendar_add_event", "Add an event to the calendar on a date.", {"title": str, "date": str}),
    ("calendar", "calendar_get_time", "Current time in the calendar's time zone.", {}),
    ("hotel", "hotel_search_rooms", "Find hotel rooms in a city with price and free beds.", {"city": str}),
    ("hotel", "hotel_book_room", "Book a hotel room for a guest and pay.", {"room_id": str, "guest": str}),
    ("taxi", "taxi_book_ride", "Book a taxi ride between two places and pay.", {"origin": str, "destination": str}),
    ("taxi", "taxi_get_price", "Price of a taxi ride between two places.", {"origin": str, "destination": str}),
    ("bank", "bank_get_exchange_rate", "Exchange rate of a currency to euro.", {"currency": str}),
    ("bank", "bank_check_balance", "Balance of a bank savings account.", {"account": str}),
    (
        "social",
        "social_send_direct_message",
        "Send a direct message to a user of the social network.",
        {"user": str, "content": str},
    ),
    ("social", "social_find_user", "Find a social network user's id by name.", {"name": str}),
    ("market", "market_list_products", "List the products of a market category with prices.", {"category": str}),
    (
        "market",
        "market_add_to_basket",
        "Put a number of one product into the market basket.",
        {"product_id": str, "count": int},
    ),
    ("market", "market_pay_basket", "Pay for the market basket.", {"pin": str}),
    (
        "rail",
        "rail_search_trains",
        "Find trains between two stations departing after now.",
        {"origin": str, "destination": str},
    ),
    ("rail", "rail_book_ticket", "Book a train ticket for a passenger and pay.", {"train_id": str, "passenger": str}),
    ("news", "news_list_articles", "List news articles about a topic.", {"topic": str}),
    ("weather", "weather_get_forecast", "Weather forecast for a city.", {"city": str}),
    ("security", "security_get_password", "Retrieve a stored password for a website.", {"site": str}),
    ("network", "network_ping", "Check whether a host answers on the network.", {"host": str}),
]


def _lookalike(name: str, parameters: dict[str, type]) -> Callable[..., dict]:
    def call(**arguments) -> dict:
        digest = hashlib.sha256(repr((name, sorted(arguments.items()))).encode()).hexdigest()[:8]
        return ok({"id": f"{name.split('_')[0]}_{digest}", "done": True})

    return _signed(call, parameters)


def distractor_tools() -> list[Tool]:
    """Every distractor, in a fixed order (unit, math, string, look-alike)."""
    lookalikes = [
        Tool(server, name, description, _lookalike(name, parameters))
        for server, name, description, parameters in LOOKALIKES
    ]
    return [*_unit_tools(), *_math_tools(), *_string_tools(), *lookalikes]
