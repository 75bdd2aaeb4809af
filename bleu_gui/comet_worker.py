"""The COMET worker: a script the app runs in a Python that has unbabel-comet, and talks to over its standard input
and output, one JSON object per line (the protocol is below). It imports nothing of bleu_gui, so that it runs in any
environment the user names (a conda env, a GPU machine's, the bundle's users'), and it imports torch and COMET only
when asked to load a model: COMET's pins (numpy<2, transformers<5, jsonargparse, pytorch-lightning) never touch the
app, and a crash or an out-of-memory here is one message there, never a dead window.

Requests and replies (each reply one line; an ``error`` reply ends a request):

- at start, unasked: ``{"ready": true, "python", "comet", "torch"}`` (the packages' versions, null when missing;
  read from their metadata: nothing heavy is imported yet);
- ``{"op": "resolve", "model"}``: the checkpoint a hub name (Hugging Face's cache first, then COMET's own
  ``download_model`` where the network allows) or a folder (``checkpoints/model.ckpt`` beside ``hparams.yaml``)
  names, and what its ``hparams.yaml`` says: ``{"checkpoint", "class", "reference_free", "spans", "encoder",
  "notes"}``;
- ``{"op": "load", "checkpoint", "encoder", "precision", "gpus"}``: loads the model once: ``{"device",
  "max_tokens"}``;
- ``{"op": "score", "items": [{"src", "mt", "ref"}...], "batch_size"}``: scores the items in batches of similar
  length (sorted as ``predict`` sorts them); after each batch
  ``{"batch": [[index, score, spans, tokens], ...], "done", "total"}``, and at the end ``{"finished": true}``.
  With ``"ray": {"address", "actors", "cpus", "gpus", "load"}`` the same batches are scored by a pool of Ray
  actors, each loading the model as ``load`` says (the worker then drives the pool, and loads nothing itself).

Whatever a library prints goes to standard error: the protocol has standard output to itself.
"""

from __future__ import annotations

import sys

del sys.path[0]  # this file's folder is bleu_gui's: none of its packages may shadow one COMET imports

import json
import os
import traceback
from collections.abc import Callable
from importlib import metadata
from typing import Any

# The model's checkpoint classes whose hparams.yaml names no references (COMET's str2model keys).
_REFERENCE_FREE = {"referenceless_regression_metric"}
_STATE: dict[str, Any] = {}


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


class WorkerError(Exception):
    """A request that cannot be done, said in the reply's words."""


def _hub_folder(name: str) -> str | None:
    """The folder of hub model ``name`` in Hugging Face's cache (None when it is not there)."""
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        return None
    try:
        return snapshot_download(repo_id=name, local_files_only=True)
    except Exception:
        return None


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0") or os.environ.get("TRANSFORMERS_OFFLINE", "") not in ("", "0")


def _checkpoint_of(model: str) -> tuple[str, list[str]]:
    """The checkpoint file of ``model`` (a folder, a .ckpt file or a hub name) and notes on how it was found."""
    if os.path.isfile(model):
        return os.path.abspath(model), []
    if os.path.isdir(model):
        checkpoint = os.path.join(model, "checkpoints", "model.ckpt")
        if not os.path.isfile(checkpoint):
            raise WorkerError(f"the model folder {model} has no checkpoints/model.ckpt")
        return os.path.abspath(checkpoint), []
    if model.startswith((".", "~", "/")) or model.count("/") > 1 or "\\" in model:  # a path, not "org/name"
        raise WorkerError(f"no model folder {model}")
    folder = _hub_folder(model)
    if folder is not None:
        return os.path.join(folder, "checkpoints", "model.ckpt"), []
    if _offline():
        raise WorkerError(f"the model {model} is not in the Hugging Face cache and the network is off "
                          "(HF_HUB_OFFLINE): fetch it where the network allows, or give its folder")
    from comet import download_model  # COMET's own: a hub snapshot, or its older download addresses
    try:
        return download_model(model), [f"{model} was downloaded"]
    except Exception as exc:
        unreachable = _hub_unreachable()
        if unreachable is None:
            raise WorkerError(f"could not fetch the model {model}: {exc}") from None
        # COMET words a hub it cannot reach as "not supported": the cause is the network, and the cure a copy.
        raise WorkerError(f"the model {model} is not in the Hugging Face cache ({_hub_cache()}) and {unreachable} "
                          f"cannot be reached (no network?): fetch it where the network allows, or download its "
                          f"folder (checkpoints/model.ckpt beside hparams.yaml, from {unreachable}/{model}) and give "
                          "that folder as the COMET model") from None


def _hub_cache() -> str:
    try:
        from huggingface_hub import constants
    except ImportError:
        return os.path.join(os.environ.get("HF_HOME", os.path.expanduser("~/.cache/huggingface")), "hub")
    return str(constants.HF_HUB_CACHE)


def _hub_unreachable() -> str | None:
    """The hub's address when no connection to it opens (no network, a firewall), else None. Behind a proxy the
    direct connection says nothing: None."""
    import socket
    from urllib.parse import urlsplit

    if any(os.environ.get(v) for v in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY")):
        return None
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    parts = urlsplit(endpoint)
    try:
        socket.create_connection((parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)),
                                 timeout=10).close()
    except OSError:
        return endpoint
    return None


def _encoder_of(hparams: dict[str, Any], checkpoint: str) -> tuple[str, list[str]]:
    """The encoder folder or hub name the model loads its config and tokenizer from, and a note when it was
    re-pointed: a checkpoint names its encoder's folder by an absolute path, which a moved folder breaks."""
    named = str(hparams.get("pretrained_model", ""))
    if not named or os.path.isdir(named):
        return named, []
    model_folder = os.path.dirname(os.path.dirname(checkpoint))
    if os.path.isabs(named) or os.sep in named:
        for candidate in (os.path.join(model_folder, os.path.basename(named.rstrip(os.sep))),
                          os.path.join(model_folder, "encoder")):
            if os.path.isfile(os.path.join(candidate, "config.json")):
                return candidate, [f"the encoder folder {named} named by hparams.yaml is not there: {candidate} "
                                   "was used"]
        raise WorkerError(f"the encoder folder {named} that {model_folder}/hparams.yaml names is not there")
    if _hub_folder(named) is None and _offline():
        raise WorkerError(f"the encoder {named} (its config and tokenizer) is not in the Hugging Face cache and the "
                          "network is off (HF_HUB_OFFLINE)")
    return named, []


def resolve(request: dict[str, Any]) -> dict[str, Any]:
    checkpoint, notes = _checkpoint_of(os.path.expanduser(request["model"]))
    if not os.path.isfile(checkpoint):
        raise WorkerError(f"no checkpoint {checkpoint}")
    hparams_file = os.path.join(os.path.dirname(os.path.dirname(checkpoint)), "hparams.yaml")
    if not os.path.isfile(hparams_file):
        raise WorkerError(f"hparams.yaml is missing beside the checkpoint (looked for {hparams_file})")
    import yaml

    with open(hparams_file, encoding="utf-8") as handle:
        hparams = yaml.load(handle.read(), Loader=yaml.FullLoader) or {}
    kind = hparams.get("class_identifier", "")
    segments = hparams.get("input_segments") or []
    encoder, said = _encoder_of(hparams, checkpoint)
    spans = kind == "xcomet_metric" or (kind == "unified_metric" and bool(hparams.get("word_level_training")))
    reference_free = kind in _REFERENCE_FREE or (kind == "unified_metric" and "ref" not in segments)
    # What COMET keeps of an input: a regression model tokenizes each text alone to at most max_positions - 2 tokens,
    # its special tokens counted (encoders/base.py: 510 for XLM-R; 510, 511 and 512 token lines score alike); a
    # unified model (xCOMET) cuts its joined input at max_positions.
    positions = _max_tokens(encoder)
    kept = positions if kind in ("unified_metric", "xcomet_metric") else positions - 2
    return {"checkpoint": checkpoint, "class": kind, "reference_free": reference_free, "spans": spans,
            "encoder": encoder, "max_tokens": kept, "notes": notes + said}


def _max_tokens(encoder: str) -> int:
    """The encoder's max_positions (its config's positions less the two XLM-R reserves; 512 when unknown)."""
    folder = encoder if os.path.isdir(encoder) else _hub_folder(encoder)
    if folder is None:
        return 512
    try:
        with open(os.path.join(folder, "config.json"), encoding="utf-8") as handle:
            return int(json.load(handle)["max_position_embeddings"]) - 2
    except (OSError, TypeError, KeyError, ValueError):
        return 512


def load(request: dict[str, Any]) -> dict[str, Any]:
    model, device, kind = _loaded(request)
    _STATE.update(model=model, device=device, kind=kind)
    return {"device": device.type, "max_tokens": int(model.encoder.max_positions)}


def _loaded(request: dict[str, Any]) -> tuple[Any, Any, str]:
    """The model a load request names, on its device, and its kind (what :func:`load` keeps; a Ray actor too)."""
    import torch

    device = torch.device("cuda" if request.get("gpus", 0) > 0 and torch.cuda.is_available() else "cpu")
    precision = request.get("precision", "fp32")
    if precision == "bf16" and device.type == "cpu":  # torch's CPU matmuls then mix bf16 and fp32 and stop
        raise WorkerError("bf16 runs on a GPU only, and this worker has none (torch sees no CUDA device): choose "
                          "fp32 or fp16")
    from comet.models import str2model

    checkpoint = request["checkpoint"]
    hparams_file = os.path.join(os.path.dirname(os.path.dirname(checkpoint)), "hparams.yaml")
    import yaml

    with open(hparams_file, encoding="utf-8") as handle:
        hparams = yaml.load(handle.read(), Loader=yaml.FullLoader) or {}
    kwargs = {"checkpoint_path": checkpoint, "load_pretrained_weights": False, "hparams_file": None,
              "map_location": torch.device("cpu"), "strict": False, "local_files_only": _offline()}
    if request.get("encoder") and request["encoder"] != hparams.get("pretrained_model"):
        kwargs["pretrained_model"] = request["encoder"]
    if hparams.get("layer_transformation") == "sparsemax_patch":  # as COMET >= 2.2.4 loads it (COMET #244)
        kwargs["layer_transformation"] = "softmax"
    model = str2model[hparams["class_identifier"]].load_from_checkpoint(**kwargs)
    if precision == "fp16":
        model = model.half()  # what comet-score does since 2.2.5
    elif precision == "bf16":
        model = model.to(torch.bfloat16)
    model = model.to(device)
    model.eval()
    return model, device, str(hparams["class_identifier"])


def _to_device(batch: Any, device: Any) -> Any:
    import torch

    if isinstance(batch, torch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return type(batch)({k: _to_device(v, device) for k, v in batch.items()})
    if isinstance(batch, (list, tuple)):
        return type(batch)(_to_device(v, device) for v in batch)
    return batch


def _tokens(model: Any, item: dict[str, str], kind: str) -> int:
    """The encoder's tokens of the longest input the model builds of ``item`` (special tokens counted), to be
    compared with what it holds (COMET truncates silently past it: COMET #105, #209)."""
    tokenizer = model.encoder.tokenizer
    lengths = [len(tokenizer(item[k], add_special_tokens=False)["input_ids"]) for k in ("mt", "src", "ref") if k in item]
    if kind in ("unified_metric", "xcomet_metric"):  # one sequence: <s> mt </s></s> src </s></s> ref </s>
        return sum(lengths) + 1 + 2 * len(lengths)
    return max(lengths) + 2


def _batches(items: list[dict[str, str]], size: int) -> list[list[int]]:
    """The items' indices in the batches COMET's predict makes (numpy's argsort of the sources' lengths): the same
    items make the same batches, so a system scored alone gets predict's very numbers (padding moves a score by
    about 1e-7), and a Ray actor scoring a batch gets the worker's."""
    import numpy

    order = [int(i) for i in numpy.argsort([len(item.get("src", item.get("ref", ""))) for item in items])]
    return [order[start:start + size] for start in range(0, len(order), size)]


def _rows(model: Any, device: Any, kind: str, samples: list[dict[str, str]], chosen: list[int]) -> list[list[Any]]:
    """One batch scored: [index, score, spans, tokens] per item."""
    import torch

    inputs = _to_device(model.prepare_for_inference(samples), device)
    with torch.inference_mode():
        prediction = model.predict_step(inputs)
    scores = prediction["scores"].float().tolist()
    metadata_ = prediction.get("metadata") or {}
    spans = metadata_.get("error_spans") if hasattr(metadata_, "get") else None
    rows = []
    for k, i in enumerate(chosen):
        found = None if spans is None else [
            {"text": s["text"], "start": int(s["start"]), "end": int(s["end"]), "severity": s["severity"],
             "confidence": float(s["confidence"])} for s in spans[k]]
        rows.append([i, scores[k], found, _tokens(model, samples[k], kind)])
    return rows


def score(request: dict[str, Any], send: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    if request.get("ray"):
        return score_on_ray(request, send)
    model, device = _STATE.get("model"), _STATE.get("device")
    if model is None:
        raise WorkerError("no model loaded")
    items = request["items"]
    batches = _batches(items, max(1, int(request.get("batch_size", 16))))
    done = 0
    for chosen in batches:
        rows = _rows(model, device, _STATE["kind"], [items[i] for i in chosen], chosen)
        done += len(chosen)
        send({"batch": rows, "done": done, "total": len(items)})
    return {"finished": True}


def score_on_ray(request: dict[str, Any], send: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """The items scored by a pool of Ray actors, each holding the model (``request["ray"]``: ``address`` — "local"
    for a cluster of this machine — ``actors``, ``cpus`` and ``gpus`` per actor, and the ``load`` request), the
    worker's very batches, one a task; each batch's rows sent as it comes back. Ray is imported here only."""
    import json as json_

    import numpy
    import ray

    asked = request["ray"]
    items = request["items"]
    batches = _batches(items, max(1, int(request.get("batch_size", 16))))
    if not ray.is_initialized():
        address = asked.get("address") or "local"
        ray.init(address=None if address == "local" else address, include_dashboard=False, log_to_driver=False,
                 num_cpus=os.cpu_count() if address == "local" else None)
    load_request = asked["load"]

    class Scorer:  # an actor: the model loaded once, then one batch a call
        def __init__(self) -> None:
            self.model, self.device, self.kind = _loaded(load_request)

        def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
            rows = [json_.dumps(_rows(self.model, self.device, self.kind, json_.loads(s), json_.loads(c)))
                    for s, c in zip(batch["samples"], batch["chosen"])]
            return {"rows": numpy.array(rows, dtype=object)}

    tasks = [{"samples": json_.dumps([items[i] for i in chosen]), "chosen": json_.dumps(chosen)} for chosen in batches]
    data = ray.data.from_items(tasks, override_num_blocks=max(1, len(tasks)))
    # GPUs per actor as asked where the cluster has them; on a cluster without, the CPU (as the worker falls back):
    # an actor asking for a GPU nobody has would never be scheduled.
    gpus = float(asked.get("gpus", 0))
    gpus = gpus if 0 < gpus <= float(ray.cluster_resources().get("GPU", 0)) else 0.0
    scored = data.map_batches(Scorer, batch_size=1, compute=ray.data.ActorPoolStrategy(
                                  size=max(1, int(asked.get("actors", 1)))),
                              num_cpus=float(asked.get("cpus", 0.5)), num_gpus=gpus, batch_format="numpy")
    done = 0
    for got in scored.iter_batches(batch_size=None, batch_format="numpy"):
        for rows in got["rows"]:
            found = json_.loads(rows)
            done += len(found)
            send({"batch": found, "done": done, "total": len(items)})
    return {"finished": True}


def main() -> None:
    protocol = os.fdopen(os.dup(1), "wt", encoding="utf-8", newline="\n")
    os.dup2(2, 1)  # whatever the libraries print goes to standard error
    sys.stdout = sys.stderr

    def send(message: dict[str, Any]) -> None:
        protocol.write(json.dumps(message, ensure_ascii=False) + "\n")
        protocol.flush()

    send({"ready": True, "python": sys.version.split()[0], "comet": _version("unbabel-comet"),
          "torch": _version("torch")})
    handlers = {"resolve": resolve, "load": load}
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        try:
            request = json.loads(line.decode("utf-8"))
            op = request.get("op")
            if op == "score":
                send(score(request, send))
            elif op in handlers:
                send(handlers[op](request))
            else:
                send({"error": f"unknown request {op!r}"})
        except WorkerError as exc:
            send({"error": str(exc)})
        except MemoryError:
            send({"error": "out of memory: try a smaller batch size (--comet-batch-size)"})
        except Exception as exc:
            traceback.print_exc()
            send({"error": f"{type(exc).__name__}: {exc}"})


if __name__ == "__main__":
    main()
