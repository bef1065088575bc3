"""
The whole flow through the client openapi-python-client generates from openapi.yaml, as a
Python SDK developer writes it: balance, target, build (with an Idempotency-Key, and its
replay), poll, deliverable, both downloads, then a 404 and a 402 that arrive as typed models.

Usage: python python-client-flow.py <base-url> <client-package-dir>
Prints one line per step; exits non-zero on the first step that does not hold.
"""
import sys
import time
import uuid

base_url, package_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, package_dir)

import httpx  # noqa: E402  (a dependency of the generated client)
from content_generation_service_api_client import AuthenticatedClient  # noqa: E402
from content_generation_service_api_client.api.builds import create_build, get_build  # noqa: E402
from content_generation_service_api_client.api.deliverables import download_deliverable, get_deliverable  # noqa: E402
from content_generation_service_api_client.api.targets import create_target  # noqa: E402
from content_generation_service_api_client.api.tokens import get_token_balance  # noqa: E402
from content_generation_service_api_client.models import (  # noqa: E402
    BlogDeliverable,
    Build,
    BuildCreate,
    BuildCreated,
    BuildStatus,
    BuildWithDeliverables,
    ContentKind,
    DownloadDeliverableFormat,
    InsufficientTokensError,
    Target,
    TargetCreate,
    TokenBalance,
)


def check(condition, message):
    if not condition:
        print(f"FAILED: {message}", flush=True)
        sys.exit(1)
    print(f"ok: {message}", flush=True)


def new_account(balance):
    """An account of its own, made through the simulator's control API (not part of the contract)."""
    response = httpx.post(f"{base_url}/_sim/accounts", json={"name": "python client", "balance": balance})
    response.raise_for_status()
    return response.json()["keys"]["readWrite"]


client = AuthenticatedClient(base_url=base_url, token=new_account(100), raise_on_unexpected_status=True)

balance = get_token_balance.sync(client=client)
check(isinstance(balance, TokenBalance) and balance.balance == 100, f"the balance reads as a TokenBalance of 100: {balance!r}")

slug = f"python-{uuid.uuid4().hex[:8]}"
target = create_target.sync(client=client, body=TargetCreate(name="Acme Coffee", slug=slug))
check(isinstance(target, Target) and target.slug == slug, f"the target is created: {target.id if isinstance(target, Target) else target!r}")

request = BuildCreate(target_id=target.id, kind=ContentKind.BLOG, objective="Announce our new single-origin espresso")
idempotency_key = str(uuid.uuid4())
created = create_build.sync_detailed(client=client, body=request, idempotency_key=idempotency_key)
check(created.status_code == 202 and isinstance(created.parsed, BuildCreated), f"the build is accepted (202): {created.status_code}")
replay = create_build.sync_detailed(client=client, body=request, idempotency_key=idempotency_key)
check(
    replay.status_code == 200 and replay.parsed.build_id == created.parsed.build_id and replay.parsed.idempotent is True,
    "the same Idempotency-Key answers the same build (200, idempotent)",
)

deadline = time.monotonic() + 120
seen = []
while True:
    polled = get_build.sync(build_id=created.parsed.build_id, client=client)
    if not isinstance(polled, BuildWithDeliverables) or not isinstance(polled.build, Build):
        check(False, f"the build polls as a Build: {polled!r}")
    if not seen or seen[-1] != polled.build.status.value:
        seen.append(polled.build.status.value)
    if polled.build.status in (BuildStatus.COMPLETED, BuildStatus.FAILED) or time.monotonic() > deadline:
        break
    time.sleep(0.5)
print(f"ok: the build polls as a Build through {' > '.join(seen)}", flush=True)
check(polled.build.status == BuildStatus.COMPLETED and len(polled.deliverables) == 1, "the build completes with one deliverable")

deliverable_id = polled.deliverables[0].id
deliverable = get_deliverable.sync(deliverable_id=deliverable_id, client=client)
check(isinstance(deliverable, BlogDeliverable) and deliverable.kind_data is not None, f"the deliverable reads as a BlogDeliverable: {type(deliverable).__name__}")

markdown = download_deliverable.sync_detailed(deliverable_id=deliverable_id, client=client, format_=DownloadDeliverableFormat.MD)
check(markdown.status_code == 200 and markdown.parsed.startswith("# "), "the Markdown download is a Markdown document")
html = download_deliverable.sync_detailed(deliverable_id=deliverable_id, client=client, format_=DownloadDeliverableFormat.HTML)
check(html.status_code == 200 and "<html" in html.parsed.lower(), "the HTML download is an HTML document")

missing = get_deliverable.sync_detailed(deliverable_id=uuid.uuid4(), client=client)
check(
    missing.status_code == 404 and type(missing.parsed).__name__.endswith("404") and missing.parsed.code.value == "NOT_FOUND",
    f"an unknown deliverable is a typed 404 NOT_FOUND: {type(missing.parsed).__name__}",
)

broke = AuthenticatedClient(base_url=base_url, token=new_account(0), raise_on_unexpected_status=True)
broke_target = create_target.sync(client=broke, body=TargetCreate(name="Acme Coffee", slug=slug))
refused = create_build.sync_detailed(client=broke, body=BuildCreate(target_id=broke_target.id, kind=ContentKind.BLOG, objective="Announce our espresso"))
check(
    refused.status_code == 402 and isinstance(refused.parsed, InsufficientTokensError) and refused.parsed.code.value == "INSUFFICIENT_TOKENS"
    and refused.parsed.details["shortfall"] >= 1,
    f"a build beyond the balance is a typed 402 InsufficientTokensError: {type(refused.parsed).__name__}",
)
print("flow complete", flush=True)
