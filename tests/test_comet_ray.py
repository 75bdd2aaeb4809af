"""COMET on a Ray cluster (``--comet-ray local``): the worker drives a Ray Data pool of actors, each holding
unbabel-comet's model, over the worker's very batches; the scores land in the same cache and equal unbabel-comet's
own predict (the local worker's numbers) to 1e-6, signed ``via:ray``. An actor killed mid-run is restarted by Ray
and nothing is lost; a cancel ends the worker and the cluster it started, keeping the batches done. Ray lives in the
worker's Python only (conftest.py: comet_ray_python)."""

import os
import signal
from pathlib import Path

import numpy as np
import pytest

from bleu_gui.core.errors import Cancelled
from bleu_gui.core.metrics.comet.cache import cache_size
from tests import comet_setup
from tests.comet_setup import comet, system
from tests.conftest import HANG

pytestmark = pytest.mark.xdist_group("comet")
en_ja = comet_setup.en_ja
fresh_user_cache = comet_setup.fresh_user_cache


def _ray_processes() -> list[int]:
    """The Ray processes of this machine (a local cluster's: its server, raylet, workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"ray::" in command or b"/ray/core/src/ray/" in command:
                found.append(int(entry.name))
    return found


def _actors() -> list[int]:
    found = []
    for pid in _ray_processes():
        try:
            if b"MapWorker" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found


def test_a_local_ray_cluster_gives_comets_own_scores_into_the_same_cache(tiny_comet, comet_ray_python, en_ja,
                                                                          comets_own, tmp_path):
    metric = comet(tiny_comet["regression"], comet_ray_python, [en_ja["ref1"]], en_ja["src"], tmp_path, ray="local")
    stats = metric.system_statistics(system(en_ja["sys1"]))
    assert np.allclose(stats[:, 0], comets_own["regression"]["scores"], atol=1e-6, rtol=0)
    assert metric.signature().endswith("|via:ray")
    metric.scorer.close()
    assert cache_size(tmp_path / "comet.sqlite")[0] == len(en_ja["sys1"])
    # The same cache read by the worker alone: nothing scored again, the numbers Ray's.
    again = comet(tiny_comet["regression"], comet_ray_python, [en_ja["ref1"]], en_ja["src"], tmp_path, ray="local")
    assert np.array_equal(again.system_statistics(system(en_ja["sys1"])), stats)


def test_an_actor_killed_mid_run_is_restarted_and_nothing_is_lost(tiny_comet, comet_ray_python, en_ja, comets_own,
                                                                  tmp_path):
    metric = comet(tiny_comet["regression"], comet_ray_python, [en_ja["ref1"]], en_ja["src"], tmp_path, ray="local",
                   batch_size=4)
    killed: list[int] = []

    def kill_an_actor(fraction):
        if fraction > 0 and not killed:  # the first batch is back: the pool is working
            killed.extend(_actors()[:1])
            for pid in killed:
                os.kill(pid, signal.SIGKILL)

    stats = metric.system_statistics(system(en_ja["sys1"]), kill_an_actor)
    assert killed
    theirs = comets_own["regression, batches of 4"]["scores"]
    assert np.allclose(stats[:, 0], theirs, atol=1e-6, rtol=0)


def test_a_cancel_ends_the_worker_and_its_cluster_and_keeps_the_batches_done(tiny_comet, comet_ray_python, en_ja,
                                                                             tmp_path):
    metric = comet(tiny_comet["regression"], comet_ray_python, [en_ja["ref1"]], en_ja["src"], tmp_path, ray="local",
                   batch_size=4)

    def cancel_after_a_batch(fraction):
        if fraction > 0:
            raise Cancelled()

    with pytest.raises(Cancelled):
        metric.system_statistics(system(en_ja["sys1"]), cancel_after_a_batch)
    assert metric.scorer.worker is None
    kept, _ = cache_size(tmp_path / "comet.sqlite")
    assert 4 <= kept < 24
    # The cluster's processes were killed with the worker's process group: they are gone once the kernel reaps them.
    assert _until(lambda: not [pid for pid in _ray_processes() if _alive(pid)])


def _alive(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def _until(condition, timeout: float = HANG) -> bool:
    """Whether ``condition`` holds before ``timeout`` seconds pass (checked as pytest-qt's waitUntil checks)."""
    import threading
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        threading.Event().wait(0.05)
    return True
