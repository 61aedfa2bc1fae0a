"""Regenerate docs/screenshot.png: the calculator's default page, as the README shows it.

    python benchmarks/screenshot.py

Starts the app on a free loopback port, opens it in Debian's Chromium (`apt-get install
chromium`; emoji need `fonts-noto-color-emoji`), waits for the full render (cards, table and
both charts drawn) and saves the top of the page at 1400 px wide.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import APP_RENDERED, ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS, ROOT, Server  # noqa: E402

#: Tall enough for the inputs, the table, the four result cards and the first chart.
VIEWPORT = {"width": 1400, "height": 1560}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    args = parser.parse_args()
    server = Server(ROOT / "app.py", ROOT, ARTIFACTS / "screenshot-server.log")
    server.start()
    try:
        server.wait_healthy()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=list(CHROMIUM_FLAGS)
            )
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(server.url)
            page.wait_for_function(APP_RENDERED, timeout=120_000)
            if page.locator('[data-testid="stException"]').count():
                raise SystemExit("the page shows an exception; no screenshot taken")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=args.out)
            browser.close()
    finally:
        server.stop()
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


if __name__ == "__main__":
    main()
