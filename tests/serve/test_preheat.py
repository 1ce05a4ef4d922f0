"""Issue 18: the app server's preheated kernel (conquest_widget/_voila_app.py, the
``python3`` kernelspec in conquest_widget/jupyter/kernels/, conquest_widget.serve.warm_up).

The browser side (each page its own kernel, no state shared between two tabs) is in
tests/e2e/test_preheated_kernels.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conquest_widget import _voila_app, serve


def test_the_app_server_preheats_one_kernel_and_refills_after_a_delay() -> None:
    cfg = _voila_app.config()
    assert cfg.VoilaConfiguration.preheat_kernel is True
    assert cfg.VoilaConfiguration.default_pool_size == _voila_app.POOL_SIZE == 1
    assert cfg.VoilaKernelManager.fill_delay == _voila_app.FILL_DELAY > 1
    assert cfg.VoilaConfiguration.get("progressive_rendering", False) is False  # Voila refuses both at once
    off = _voila_app.config(pool_size=0)
    assert off.VoilaConfiguration.preheat_kernel is False


def test_the_servers_python3_kernelspec_runs_the_warm_up(tmp_path) -> None:
    """With the app server's JUPYTER_PATH, `python3` is the package's kernelspec: ipykernel
    plus one exec line that warms up only preheated kernels."""
    code = ("from jupyter_client.kernelspec import KernelSpecManager as K; s = K().get_kernel_spec('python3'); "
            "import json; print(json.dumps([s.resource_dir, s.argv]))")
    env = dict(os.environ, JUPYTER_PATH=str(serve.JUPYTER_DATA), JUPYTER_PLATFORM_DIRS="1", HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True, timeout=120)
    resource_dir, argv = json.loads(out.stdout)
    assert resource_dir == str(serve.JUPYTER_DATA / "kernels" / "python3")
    assert argv[:5] == ["python", "-m", "ipykernel_launcher", "-f", "{connection_file}"]  # "python": this interpreter
    assert argv[5].startswith("--IPKernelApp.exec_lines=") and "warm_up_if_preheated()" in argv[5]


def exec_line() -> str:
    spec = json.loads((serve.JUPYTER_DATA / "kernels" / "python3" / "kernel.json").read_text())
    return spec["argv"][5].partition("=")[2]


def run_exec_line(preheat: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != serve.PREHEAT_ENV}
    if preheat is not None:
        env[serve.PREHEAT_ENV] = preheat
    probe = ("import sys; print(' '.join(m for m in ('conquest_widget.saves', 'ipyleaflet', "
             "'conquest_widget.games.codex.widget', 'conquest_widget.games.japanese_risk.widget', "
             "'conquest_widget.games.conquest_cards.widget', 'conquest_widget.games.japan_conquest.widget') if m in sys.modules)); "
             "print('_cw_serve' in dir())")
    out = subprocess.run([sys.executable, "-c", exec_line() + "\n" + probe], env=env, check=True,
                         capture_output=True, text=True, timeout=180)
    return out.stdout.split("\n")[:2]


def test_a_preheated_kernel_imports_every_games_first_screen_and_leaves_no_name() -> None:
    loaded, leftover = run_exec_line("True")
    assert loaded.split() == ["conquest_widget.saves", "ipyleaflet", "conquest_widget.games.codex.widget",
                              "conquest_widget.games.japanese_risk.widget",
                              "conquest_widget.games.conquest_cards.widget", "conquest_widget.games.japan_conquest.widget"]
    assert leftover == "False"


def test_any_other_kernel_skips_the_warm_up() -> None:
    """A kernel started for a waiting page (Voila sets VOILA_PREHEAT=False) or outside Voila."""
    for value in ("False", None):
        loaded, leftover = run_exec_line(value)
        assert loaded == "" and leftover == "False"
