"""The LLM judge's settings (``--llm-*``): which judgement (GEMBA-MQM's errors or GEMBA-ESA's spans and score), which
endpoint and model, the prompt, the sampling, how many requests at once, where the answers are cached. The key itself
is never a setting: only the name of the environment variable (or keyring entry) that holds it."""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import urlsplit

from ...errors import ConfigError, term
from ..family import Family, MetricConfig
from ..settings import MetricSettings, setting

JUDGEMENTS = ("mqm", "esa")
DEFAULT_ENDPOINT = "http://127.0.0.1:8080/v1"  # llama.cpp's llama-server as it starts


@dataclass(frozen=True)
class LlmConfig(MetricSettings):
    """The LLM judge's settings (see the module). ``concurrency``, ``timeout`` and ``cache`` change how the work is
    done, never a number."""

    judge: str = setting("mqm", label="judgement", choices=JUDGEMENTS,
                         help="mqm: the errors of the translation (span, category, severity), scored with MQM's "
                              "weights (GEMBA-MQM); esa: error spans and a 0-100 score (GEMBA-ESA)")
    endpoint: str = setting(DEFAULT_ENDPOINT, label="endpoint", metavar="URL",
                            help="an OpenAI-compatible API's base URL (llama-server, vLLM, Ollama, LM Studio: "
                                 f"…/v1; default {DEFAULT_ENDPOINT})")
    model: str = setting("", label="model", metavar="NAME",
                         help="the model as the endpoint names it (default: the endpoint's only model)")
    key_env: str = setting("", label="key variable", metavar="VAR",
                           help="the environment variable that holds the API key (or, where it is unset, the OS "
                                "keyring's entry of that name under the service bleu-gui); the key is never "
                                "written anywhere")
    prompt: str = setting("", label="prompt file", metavar="FILE",
                          help="a prompt of your own ({source_lang}, {target_lang}, {source}, {translation}); "
                               "default: GEMBA-MQM's or GEMBA-ESA's, as shipped")
    temperature: float = setting(0.0, label="temperature", low=0, high=2, metavar="T",
                                 help="the sampling temperature (0: the most likely answer)")
    seed: int = setting(1, label="seed", low=0, high=2 ** 31 - 1, metavar="N",
                        help="the sampling seed the endpoint is asked to use")
    max_tokens: int = setting(1024, label="answer tokens", low=16, high=32768, metavar="N",
                              help="the longest answer asked for; an answer cut there is counted and left unscored")
    concurrency: int = setting(4, label="requests at once", low=1, high=64, metavar="N",
                               help="requests sent at once")
    timeout: float = setting(120.0, label="timeout (s)", low=1, high=3600, metavar="S",
                             help="seconds to wait for one answer before it counts as failed")
    cache: str = setting("", label="cache file", metavar="FILE",
                         help="the SQLite file of the judge's answers (default: llm-judgements.sqlite in the user's "
                              "cache folder)")
    # What the judge does with a request the cache cannot answer: ask the endpoint, or hand it off (an OpenAI batch
    # written for an engine elsewhere; the segment unscored until its answer is imported). Set by the batch export.
    hand_off: bool = setting(False, label="hand off", cli=False, window=False,
                             help="write the requests the cache cannot answer as an OpenAI batch instead of asking")
    # The run's declared languages, which the prompt names: set from the files (for_target_language), never chosen.
    languages: str = setting("", label="languages", cli=False, window=False, file_bound=True,
                             help="the run's source and target language codes, as SRC-TGT")
    # The run's MQM weights (major, minor, critical, non-translation, minor punctuation), which score the MQM
    # judgement's errors: set from the run's MQM settings (beside), never chosen here; () for Google's.
    mqm_weights: tuple[float, ...] = setting((), label="MQM weights", cli=False, window=False,
                                             help="the run's MQM weights")

    key: ClassVar[str] = "llm"
    badge: ClassVar[str] = "LLM"
    # The same model behind another address answers the same (the endpoint is not in the cache's key).
    work_only: ClassVar[tuple[str, ...]] = ("endpoint", "key_env", "concurrency", "timeout", "cache", "hand_off")

    def validated(self) -> LlmConfig:
        if self.judge not in JUDGEMENTS:
            raise ConfigError(f"{term('llm.judge')}: one of {', '.join(JUDGEMENTS)}, got {self.judge!r}")
        endpoint = self.endpoint.strip().rstrip("/")
        problem = _url_problem(endpoint)
        if problem:
            raise ConfigError(f"{term('llm.endpoint')}: an http:// or https:// URL such as {DEFAULT_ENDPOINT}; "
                              f"{problem}")
        if self.key_env and (not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.key_env) or looks_like_a_key(self.key_env)):
            # Never echoed: what was typed may be the key itself, pasted into the wrong field.
            raise ConfigError(f"{term('llm.key_env')}: the name of an environment variable (such as OPENAI_API_KEY), "
                              "not the key itself: what was given looks like a key, so it is not repeated here")
        return dataclasses.replace(self, endpoint=endpoint, model=self.model.strip())

    def for_target_language(self, languages: tuple[str, str] | None, declared: str = "") -> tuple[LlmConfig, str]:
        """The run's languages, for the prompt to name (no note: nothing that changes a setting's meaning)."""
        pair = "-".join(languages) if languages and all(languages) else ""
        return dataclasses.replace(self, languages=pair), ""

    def beside(self, metrics: Sequence[MetricConfig]) -> LlmConfig:
        """These settings with the weights of the run's MQM among ``metrics`` (its errors are scored as the
        humans' are)."""
        found = next((m for m in metrics if m.key == "mqm"), None)
        weights = tuple(float(v) for v in found.to_dict().values() if isinstance(v, (int, float))
                        and not isinstance(v, bool)) if found is not None else ()
        return dataclasses.replace(self, mqm_weights=weights)

    def languages_pair(self) -> tuple[str, str] | None:
        """(source, target) language codes, where the run declared them."""
        source, _, target = self.languages.partition("-")
        return (source, target) if source and target else None

    def notice(self) -> str:
        """Where the texts go, when the endpoint is another machine (said before the first request)."""
        if not self.off_this_machine():
            return ""
        return (f"LLM judge: the source and translation texts are sent to {self.host}, off this machine "
                f"({self.shown_endpoint()})")

    @property
    def host(self) -> str:
        """The endpoint's host (what the privacy note names)."""
        return urlsplit(self.endpoint).hostname or ""

    def off_this_machine(self) -> bool:
        """Whether the endpoint is another machine: the texts leave this one (see :func:`is_loopback`)."""
        return not is_loopback(self.host)

    def shown_endpoint(self) -> str:
        """The endpoint without what a URL may carry of a secret (user, password, query)."""
        parts = urlsplit(self.endpoint)
        try:
            port = f":{parts.port}" if parts.port else ""
        except ValueError:  # a port that is no port: refused by validated(); shown as written meanwhile
            port = ""
        host = parts.hostname or ""
        return f"{parts.scheme}://{f'[{host}]' if ':' in host else host}{port}{parts.path}"

    def non_default(self) -> list[str]:
        # The endpoint (the same model answers the same anywhere: the signature names the model), requests at once,
        # the timeout and the cache change no number: no badge says them.
        quiet = ("LLM endpoint", "LLM requests at once", "LLM timeout", "LLM cache", "LLM languages", "LLM MQM weights",
                 "LLM hand off")
        return [label for label in super().non_default() if not label.startswith(quiet)]


def _url_problem(endpoint: str) -> str:
    """What is wrong with ``endpoint`` as the judge's URL, '' when nothing is (a query is allowed: Azure's
    ``?api-version=``)."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port  # raises for a port that is not a number from 0 to 65535
    except ValueError as exc:  # not echoed: a URL may carry a user's password or a key in its query
        return f"the URL given cannot be read ({str(exc).lower()})"
    if parts.scheme not in ("http", "https"):
        return "the URL given does not start with http:// or https://"
    if not parts.hostname:
        return "the URL given names no host"
    if port == 0:
        return "the URL given names port 0"
    return ""


def looks_like_a_key(name: str) -> bool:
    """Whether what was given as a variable's name looks like an API key instead: a known key prefix, or a long run
    of mixed-case letters and digits with no underscore (variables are named in capitals with underscores)."""
    if re.match(r"(sk|pk|rk|hf|gsk|xai|key)[-_]", name, re.IGNORECASE) and len(name) >= 20:
        return True
    mixed = any(c.islower() for c in name) and any(c.isupper() for c in name) and any(c.isdigit() for c in name)
    return len(name) >= 20 and "_" not in name and mixed


def is_loopback(host: str, resolve: Callable[[str], list[str]] | None = None) -> bool:
    """Whether ``host`` is this machine, by the address it names: a literal address that is loopback, or a name
    whose every address is (``localhost``; a name such as ``127.0.0.1.nip.io`` only as the resolver says, and
    ``127.attacker.example`` never by its spelling). A name that cannot be resolved is another machine."""
    name = host.strip("[]").lower()
    if not name:
        return False
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    try:
        addresses = (resolve or _resolved)(name)
    except OSError:
        return False
    return bool(addresses) and all(_loopback_address(a) for a in addresses)


def _loopback_address(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


@functools.lru_cache(maxsize=64)
def _resolved_once(name: str) -> tuple[str, ...]:
    return tuple({str(info[4][0]) for info in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)})


def _resolved(name: str) -> list[str]:
    return list(_resolved_once(name))


FAMILY = Family("llm", "LLM judge", LlmConfig, "llm.metric", cost=4, reads_source=True, scored_elsewhere=True,
                needs_reference=False,
                about="An LLM asked for the translation's errors (GEMBA-MQM, Kocmi & Federmann 2023) or for error "
                      "spans and a score (GEMBA-ESA), through any OpenAI-compatible endpoint; cached and signed")
