"""ComplexMCP: interdependent, failure-prone sandbox tools on the Model Context Protocol, and the three agent
bottlenecks (spec: ``shared/papers/complex_mcp.md``; reference code: AIDC-AI/complex-mcp, read, not copied).

Modules:
    world        -- the seeded world: System, Chat, Shop and Flight sharing a clock, a wallet and contacts
    apps         -- the stateful tools and their seeded failures (network, privilege gate, payment)
    distractors  -- stateless distractor tools (units, math, strings, look-alike apps)
    servers      -- the tools as FastMCP servers, in-memory client sessions (``Toolbox``), HTTP for users
    protocol     -- the ``<tool>`` / ``<response>`` / ``[END]`` text protocol and its parser
    tasks        -- templated tasks at three levels and the programs that solve them (gold states)
    judge        -- the paper's judge (total / recall / misbehave), intended and released exclude keys
    agents       -- oracle, no-retry, skip-verification, BM25 retrieval and random agents
    episodes     -- one episode through the harness; experiments -- the three grids; throughput -- timing
    public       -- the reference's 47 public tasks against its own sandbox over HTTP (paper scale);
                    public_replica -- a tiny sandbox and task file in its protocol and format, for tests
    summary, plots, verdict, rules -- tables, figures, claims, rule functions
"""

# what the paper-scale replicas need (icml26.common.lm.replicas.overlay): the paper section's public-task settings
# (its task file, fetched as a replica; the tests point public.servers at a replica sandbox they serve)
REPLICA_KEYS = ("public",)


def replica_data(origin: str, folder) -> None:
    """The fetched task file's replica (``make fetch FROM=`` in the tests): a ``data.parquet`` in the reference's
    format."""
    from .public_replica import write_replica

    write_replica(folder)
