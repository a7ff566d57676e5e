"""A real MCP client (the Python `mcp` package) driving `mo-mem mcp` over stdio, for
tests/it/mcp_server.rs. Reads a plan on stdin:

    {"command": "/path/to/mo-mem", "args": ["mcp", ...], "env": {...},
     "calls": [{"tool": "report", "arguments": {...}}, ...]}

and prints one JSON object: the server's name, the tools it lists (as the protocol carries
them) and, per call, whether it is an error, its text contents and its structured content.
The client validates each structured result against the tool's output schema itself."""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def field(obj, name, old_name):
    """A result's field by its name in the package's 2.x API, else in the 1.x one."""
    return getattr(obj, name) if hasattr(obj, name) else getattr(obj, old_name)


async def main():
    plan = json.load(sys.stdin)
    params = StdioServerParameters(
        command=plan["command"], args=plan["args"], env=plan.get("env")
    )
    out = {"calls": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            out["server"] = field(init, "server_info", "serverInfo").name
            listed = await session.list_tools()
            out["tools"] = [
                t.model_dump(mode="json", by_alias=True, exclude_none=True)
                for t in listed.tools
            ]
            for call in plan["calls"]:
                r = await session.call_tool(call["tool"], call.get("arguments", {}))
                out["calls"].append(
                    {
                        "isError": bool(field(r, "is_error", "isError")),
                        "text": [c.text for c in r.content if c.type == "text"],
                        "structured": field(r, "structured_content", "structuredContent"),
                    }
                )
    json.dump(out, sys.stdout)


asyncio.run(main())
