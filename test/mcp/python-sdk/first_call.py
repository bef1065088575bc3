"""The official MCP Python SDK against the simulator: how long the first tool call of a session takes.

Modes:
  session-oauth  the 2025-era session (initialize, Mcp-Session-Id, the GET event stream), signed in
                 with OAuth: dynamic registration, PKCE, the sign-in page answered with an API key.
  2026-07-28     the stateless revision, with the API key as the bearer credential.

Prints one JSON object: each session's first-call time in seconds and what the call answered.
Usage: python first_call.py <mode> <base-url> <api-key> <sessions>
"""

import asyncio
import json
import re
import sys
import time
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

REDIRECT = "http://127.0.0.1:9/callback"


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def oauth_provider(base: str, api_key: str) -> OAuthClientProvider:
    """A provider whose 'browser' signs in on the simulator's page with the API key."""
    answered: dict[str, str] = {}

    async def redirect_handler(url: str) -> None:
        async with httpx2.AsyncClient() as http:
            page = await http.get(url)
            field = lambda name: re.search(f'name="{name}" value="([^"]+)"', page.text).group(1)
            cookie = page.headers["set-cookie"].split(";")[0]
            decided = await http.post(
                f"{base}/oauth/authorize",
                data={"request_id": field("request_id"), "csrf_token": field("csrf_token"), "api_key": api_key, "decision": "approve"},
                headers={"cookie": cookie},
            )
            query = parse_qs(urlparse(decided.headers["location"]).query)
            answered.update({k: v[0] for k, v in query.items()})

    async def callback_handler() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(code=answered["code"], state=answered.get("state"), iss=answered.get("iss"))

    metadata = OAuthClientMetadata(client_name="python-sdk-test", redirect_uris=[REDIRECT], token_endpoint_auth_method="none", scope="svc:read svc:write")
    return OAuthClientProvider(f"{base}/mcp", metadata, MemoryStorage(), redirect_handler, callback_handler)


async def one_session(mode: str, base: str, api_key: str) -> dict:
    if mode == "session-oauth":
        http = create_mcp_http_client(auth=oauth_provider(base, api_key))
        client = Client(streamable_http_client(f"{base}/mcp", http_client=http), mode="legacy")
    else:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {api_key}"})
        client = Client(streamable_http_client(f"{base}/mcp", http_client=http), mode="2026-07-28")
    async with http, client:
        started = time.perf_counter()
        result = await client.call_tool("getTokenBalance", {})
        seconds = time.perf_counter() - started
        second = await client.call_tool("listTargets", {"limit": 1})
    return {"seconds": seconds, "balance": result.structured_content, "isError": bool(result.is_error), "secondIsError": bool(second.is_error)}


async def main() -> None:
    mode, base, api_key, sessions = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    runs = [await one_session(mode, base, api_key) for _ in range(sessions)]
    print(json.dumps({"mode": mode, "runs": runs}))


asyncio.run(main())
