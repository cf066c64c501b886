"""`make run`: serve the site on all interfaces and show phones where to find it.

Prints the address on this machine's network and a QR code of it in the terminal, then runs
uvicorn (ASGI, so the live streams work), with as many open files as the system lets the
process have: every phone's live stream is a socket.
"""

import contextlib
import os
import socket

import segno
import uvicorn


def lan_address() -> str:
    """The address other devices on the network reach this one by (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def raise_open_files() -> tuple[int, int] | None:
    """Raise the process's soft limit of open files to its hard limit, and return the limits
    now (None where the system has no such limit). A process holding 2,000 phones' streams needs
    2,000 sockets; the soft limit is often 1,024 where the hard one allows far more. Where the
    hard limit is unlimited (macOS) the soft one goes as high as the system accepts."""
    try:
        import resource
    except ImportError:  # (Windows)
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = [hard] if hard != resource.RLIM_INFINITY else [1 << 20, 65536, 10240]
    for limit in wanted:
        if soft != resource.RLIM_INFINITY and limit <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
        except (ValueError, OSError):
            continue  # (above what the system allows: try a lower one)
        break
    return resource.getrlimit(resource.RLIMIT_NOFILE)


class Server(uvicorn.Server):
    async def shutdown(self, sockets=None) -> None:
        # The phones' live streams would hold the server until it cancels them (with errors in
        # the terminal): they end first, cleanly.
        from campaigns.live import close_streams

        close_streams()
        await super().shutdown(sockets)


def main() -> None:
    raise_open_files()
    port = int(os.environ.get("PORT", "8000"))
    host = os.environ.get("HOST", "0.0.0.0")
    address = lan_address()
    if host in {"0.0.0.0", "::"}:
        # The owner may browse at 127.0.0.1: invitations then name this address, which phones
        # can open (campaigns/views/render.py).
        os.environ.setdefault("COMPANION_LAN_ADDRESS", address)
    url = f"http://{address}:{port}/"
    print(f"\nCompanion is starting. On a phone on the same network, open:\n\n    {url}\n")
    segno.make(url, error="l").terminal(compact=True)
    print(f"\n(On this computer: http://127.0.0.1:{port}/ · Ctrl+C stops the site.)\n", flush=True)
    config = uvicorn.Config(
        "companion.asgi:application",
        host=host,
        port=port,
        log_level=os.environ.get("LOG_LEVEL", "warning"),
        # The site reads X-Forwarded-For itself, and only when told a proxy writes it
        # (COMPANION_TRUST_PROXY): uvicorn must not take a client's word for its address.
        proxy_headers=False,
        timeout_graceful_shutdown=2,
    )
    # Ctrl+C is raised again once the server has stopped cleanly: nothing to report.
    with contextlib.suppress(KeyboardInterrupt):
        Server(config).run()
    print("Companion stopped.")


if __name__ == "__main__":
    main()
