"""The resource limits through the page and the lecture hall (hostile review 4, H1 to H3, D1 and
D3; issue #31), each beside a floor measured in the same run.

- Page rows (H1, H2, H3): the per-case page's logs section under Streamlit's AppTest (as the
  review's ``logs_page.py`` timed them: H1 25.6 s and 2,877 MB, H2 24 s and 1,337 MB, H3 13 s
  and 1,375 MB of page time): the run that gets both logs, its seconds, the page process's
  RSS growth (the replica's share) and the peak RSS of the child that reads (ui/isolation.py),
  against 30 s and 2 GB. Floor: a rerun of the same page with no log given.
- D3 (upload flood): ``deploy.serve --replicas 1``; one session (its websocket open) PUTs twelve
  50 MB files to its own upload path through the balancer, as the review's ``upload_flood.py``
  did from the page's JavaScript (243 -> 646 MB, all 204), and four more, past the balancer's
  budget per session. Figures: the answers and the replica's RSS after, against its RSS with
  the session idle (the floor).
- D1 (freeze): on the same server, a visitor in Chromium gives two Inspect logs at the
  readers' value limits (tests/browser/test_upload_isolation.py's); meanwhile another session
  moves the calculator's slider over the websocket and a probe asks the health check. Figures:
  their median and slowest answers while the logs are read, against the same session's idle
  answers just before (the floor), and the replica's own CPU beyond that session's pace.

    python benchmarks/bench_page_limits.py [--only page flood freeze]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from http.cookiejar import CookieJar
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for folder in (
    HERE,
    ROOT,
    ROOT / "tests" / "pages",
    ROOT / "tests" / "browser",
    ROOT / "tests" / "deploy",
):
    sys.path.insert(0, str(folder))

LIMIT_S, LIMIT_MB = 30.0, 2048.0
#: Eight 50 MB files were the review's flood; twelve go past the balancer's budget per session
#: (deploy/haproxy.py: four files at the upload limit, 4 x 101 MB, within ten minutes).
FLOOD_FILES, FLOOD_MB = 12, 50


def rss_mb(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(found.group(1)) / 1024 if found else 0.0


def grandchildren(pid: int) -> list[int]:
    """Processes whose parent is a child of `pid`: the fork server's children, the readers."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue
    children = {p for p, parent in parents.items() if parent == pid}
    return [p for p, parent in parents.items() if parent in children]


class Peaks:
    """The page process's RSS and the largest reader's, sampled 20 times a second."""

    def __init__(self) -> None:
        self.own = self.child = 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        me = os.getpid()
        while not self.stop.is_set():
            self.own = max(self.own, rss_mb(me))
            self.child = max([self.child, *(rss_mb(p) for p in grandchildren(me))])
            time.sleep(0.05)

    def __enter__(self) -> Peaks:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def page_cases(tmp: Path) -> dict[str, tuple[list[Path], list[Path]]]:
    """The review's page runs, made by benchmarks/bench_limits.py's generators."""
    import bench_limits as made

    h2 = [made.many_metrics(tmp / f"metrics20_{seed}", 20, seed) for seed in (1, 2)]
    return {
        "H1 .eval, {} member (2 x 100 kB)": (
            [made.eval_log(tmp / "objects_a.eval", "m/a", b"{},")],
            [made.eval_log(tmp / "objects_b.eval", "m/b", b"{},")],
        ),
        "H2 lm-eval 40 metrics (2 x 20 MB)": (list(h2[0].iterdir()), list(h2[1].iterdir())),
        "H3 Inspect 200 x 20, errored": tuple(
            [made.epochs(tmp / f"epochs200_{m}.json", f"m/{m}", 200, seed, share)]
            for m, seed, share in (("a", 1, 0.6), ("b", 2, 0.5))
        ),
        "H3 Inspect 550 x 20, errored": tuple(
            [made.epochs(tmp / f"epochs550_{m}.json", f"m/{m}", 550, seed, share)]
            for m, seed, share in (("a", 1, 0.6), ("b", 2, 0.5))
        ),
    }


def _uploads(paths: list[Path]) -> list[tuple[str, bytes, str]]:
    return [(p.name, p.read_bytes(), "application/octet-stream") for p in paths]


def page_rows() -> None:
    from apptest_pages import open_page

    from ui.isolation import isolated

    with tempfile.TemporaryDirectory() as folder:
        cases = page_cases(Path(folder))
        at = open_page("app_pages/cases.py")
        at.checkbox(key="logs_show").check().run()
        floors = []
        for _ in range(3):
            started = time.perf_counter()
            at.run()
            floors.append(time.perf_counter() - started)
        floor, base = min(floors), rss_mb(os.getpid())
        started = time.perf_counter()
        isolated(len, b"")  # the fork server starts (once per server): apart from the rows
        start = time.perf_counter() - started
        print(
            f"floor: a rerun of the logs section with no log given, {floor:.3f} s; "
            f"page RSS {base:.0f} MB; the fork server's start (first upload only) {start:.2f} s"
        )
        print(f"{'':36}{'page s':>8}{'ratio':>8}{'page +MB':>10}{'child MB':>10}  outcome")
        for label, (a, b) in cases.items():
            at = open_page("app_pages/cases.py")
            at.checkbox(key="logs_show").check().run()
            at.file_uploader(key="logs_a").set_value(_uploads(a)).run()
            before = rss_mb(os.getpid())
            with Peaks() as peaks:
                started = time.perf_counter()
                at.file_uploader(key="logs_b").set_value(_uploads(b)).run()
                seconds = time.perf_counter() - started
            errors = [e.value.replace("\\", "") for e in at.error]
            outcome = ("refused: " + errors[0][:70]) if errors else "report shown"
            if at.exception:
                outcome = "EXCEPTION " + str(at.exception[0].value)[:70]
            grown = peaks.own - before
            print(
                f"{label:36}{seconds:8.2f}{seconds / floor:8.0f}{grown:10.0f}{peaks.child:10.0f}"
                f"  {outcome}"
            )
            ok = seconds < LIMIT_S and peaks.own < LIMIT_MB and peaks.child < LIMIT_MB
            print(
                f"{'':36}within {LIMIT_S:.0f} s and {LIMIT_MB:.0f} MB (page and child): "
                f"{'yes' if ok else 'NO'}"
            )


async def _open_session(url: str) -> tuple[object, str]:
    """A websocket session on `url` after its first run; (socket, session id)."""
    socket = await websockets.connect(
        url.replace("http://", "ws://") + "_stcore/stream",
        max_size=None,
        ping_interval=None,
        open_timeout=120,
    )
    first = BackMsg()
    first.rerun_script.query_string = ""
    await socket.send(first.SerializeToString())
    session = ""
    while True:
        message = ForwardMsg()
        message.ParseFromString(await asyncio.wait_for(socket.recv(), 180))
        if message.WhichOneof("type") == "new_session":
            session = message.new_session.initialize.session_id
        if message.WhichOneof("type") == "script_finished":
            return socket, session


def _put(opener: urllib.request.OpenerDirector, url: str, token: str, size: int) -> int:
    """The answer's status to one multipart PUT of `size` bytes; 0 if the connection closed."""
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    body = head + b"\0" * size + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        url,
        data=body,
        method="PUT",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}", "X-Xsrftoken": token},
    )
    try:
        with opener.open(request, timeout=120) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code
    except urllib.error.URLError:  # refused (429) while the body was still being sent
        return 0


def flood_row(served) -> None:  # noqa: ANN001
    replica = served.child_pids()[0]
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(served.url + "_stcore/health", timeout=60).read()  # sets the XSRF cookie
    token = next(c.value for c in jar if c.name == "_streamlit_xsrf")

    async def flood() -> tuple[float, list[int], float, float]:
        socket, session = await _open_session(served.url)
        try:
            await asyncio.sleep(3)
            floor = rss_mb(replica)
            statuses = []
            for k in range(FLOOD_FILES):
                url = f"{served.url}_stcore/upload_file/{session}/flood{k}"
                statuses.append(
                    await asyncio.to_thread(_put, opener, url, token, FLOOD_MB * 1024 * 1024)
                )
            await asyncio.sleep(3)
            after = rss_mb(replica)
        finally:
            await socket.close()
        await asyncio.sleep(10)
        return floor, statuses, after, rss_mb(replica)

    floor, statuses, after, closed = asyncio.run(flood())
    print(
        f"\nD3 flood: {FLOOD_FILES} x {FLOOD_MB} MB PUT to one session's upload path "
        "through the balancer"
    )
    print(f"  answers {statuses} (0: the connection closed by the balancer's refusal mid-body)")
    print(
        f"  replica RSS: floor (one idle session) {floor:.0f} MB, after {after:.0f} MB, ratio "
        f"{after / floor:.2f} (review: 243 -> 646 MB, 2.66, all 204); under {LIMIT_MB:.0f} MB: "
        f"{'yes' if after < LIMIT_MB else 'NO'}; 10 s after the session closed {closed:.0f} MB"
    )


def freeze_row(served, tmp: Path) -> None:  # noqa: ANN001
    import test_upload_isolation as hall
    from playwright.sync_api import sync_playwright

    a, b = (hall.heavy_eval(tmp / f"{side}.eval", f"m/{side}") for side in "ab")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(hall.CHROMIUM), args=list(hall.CHROMIUM_FLAGS)
        )
        try:
            page = hall._logs_page(browser, served.url, a)
            cpu = hall.ReplicaCpu(served.child_pids()[0])
            with hall.Watch(served.url) as watch:
                idle = cpu.floor(8)
                cpu.begin()
                hall._compare_logs(page, "b.eval", b)
                spent, busy = cpu.extra()
        finally:
            browser.close()
    print("\nD1 freeze: another session while a visitor's two heavy .eval logs are read")
    print(
        f"{'':28}{'idle median':>12}{'busy median':>12}{'ratio':>7}{'idle max':>10}{'busy max':>10}"
    )
    for name, index in (("slider rerun (s)", 0), ("health check (s)", 1)):
        quiet, loaded = watch.between(*idle)[index], watch.between(*busy)[index]
        q, m = statistics.median(quiet), statistics.median(loaded)
        print(
            f"{name:28}{q:12.3f}{m:12.3f}{m / q if q else float('nan'):7.1f}"
            f"{max(quiet):10.3f}{max(loaded):10.3f}"
        )
    print(
        f"  logs read in {busy[1] - busy[0]:.1f} s; the replica's own CPU beyond the other "
        "session's pace: "
        f"{spent:.2f} s; errors {watch.failures or 'none'}"
    )


def hall_rows(only: set[str]) -> None:
    from deploy.launcher import launched

    with tempfile.TemporaryDirectory() as folder, launched(1, None, "--log-dir", folder) as served:
        if "flood" in only:
            flood_row(served)
        if "freeze" in only:
            freeze_row(served, Path(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="+", default=["page", "flood", "freeze"])
    only = set(parser.parse_args().only)
    print(
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores",
    )
    if "page" in only:
        page_rows()
    if only & {"flood", "freeze"}:
        hall_rows(only)


if __name__ == "__main__":
    main()
