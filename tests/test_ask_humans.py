"""Ask the humans: a run's segments written as a Pearmut campaign (``--ask-humans``), rated through a real Pearmut
server, and its ratings read back onto the segments and systems asked about, by the items' ids."""

import hashlib
import json
import subprocess
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli, data_set, script

PEARMUT_FILES = ROOT / "tests" / "data" / "pearmut"  # Japanese candidates with emoji (scripts/make_pearmut_files.py)


def emoji_run(*more):
    d = PEARMUT_FILES
    return (d / "ref.txt", "-i", d / "A.txt", d / "B.txt", "--src", d / "src.txt", *more)


def lines(path):
    return Path(path).read_text(encoding="utf-8").splitlines()


def items_of(campaign):
    return [item for task in campaign["data"] for document in task for item in document]


def test_each_item_names_its_line_and_the_mapping_file_its_files(capsys, tmp_path):
    d = data_set("wmt22-en-ja")
    out = tmp_path / "enja.json"
    code, said, err = cli(capsys, d / "ref1.txt", "-i", d / "sys1.txt", d / "sys2.txt", d / "sys3.txt", "--src",
                          d / "src.txt", "-m", "chrf", "--where", "src_words >= 10", "--ask-humans", out, "--sample",
                          "60", "--raters", "2", "--items-per-rater", "30")
    assert code == 0, err
    campaign = json.loads(out.read_text(encoding="utf-8"))
    assert campaign["campaign_id"] == "enja" and campaign["info"]["protocol"] == "ESA"
    assert campaign["info"]["assignment"] == "task-based" and campaign["info"]["users"] == [
        "rater01", "rater02", "rater03", "rater04"]
    assert [len(task) for task in campaign["data"]] == [30, 30, 30, 30]
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # src_words counts BLEU's tokens (13a by default)

    src, words_of = lines(d / "src.txt"), Tokenizer13a()
    key = hashlib.sha256("\n".join(src).encode()).hexdigest()[:12]
    asked = defaultdict(int)
    for item in items_of(campaign):
        prefix, their_key, line = item["item_id"].split(":")
        row = int(line) - 1
        assert (prefix, their_key) == ("bleu-gui", key)
        assert len(words_of(src[row]).split()) >= 10 and item["src"] == src[row]
        assert item["tgt"] == {f"sys{k}.txt": lines(d / f"sys{k}.txt")[row] for k in (1, 2, 3)}
        asked[row] += 1
    assert len(asked) == 60 and set(asked.values()) == {2}  # each segment in two raters' tasks
    mapping = json.loads((tmp_path / "enja.bleu-gui.json").read_text(encoding="utf-8"))
    assert mapping["key"] == key and mapping["lines"] == sorted(r + 1 for r in asked)
    for k in (1, 2, 3):
        assert mapping["systems"][f"sys{k}.txt"]["sha256"] == hashlib.sha256(
            "\n".join(lines(d / f"sys{k}.txt")).encode()).hexdigest()
    # Words as CAT tools count them: a token with a letter or a digit ("-" and "&" are none).
    words = sum(sum(any(ch.isalnum() for ch in t) for t in src[r].split()) for r in asked) * 3 * 2
    assert mapping["estimate"]["source_words"] == words and mapping["estimate"]["ratings"] == 60 * 3 * 2
    assert f"{words:,} source words" in said and "sys1.txt vs sys2.txt" in said


def test_documents_are_kept_whole_and_in_order(capsys, tmp_path):
    xml = data_set("formats/wmt-xml-wmt22-en-zh") / "wmttest2022.en-zh.all.xml"
    order = defaultdict(list)  # the XML's own documents: their segments' text, in order (ElementTree, not ours)
    row = 0
    for doc in ET.parse(xml).getroot().iter("doc"):
        for seg in doc.find("src").iter("seg"):
            order[doc.get("id")].append((row, seg.text or ""))
            row += 1
    out = tmp_path / "docs.json"
    code, _, err = cli(capsys, xml, "--ask-humans", out, "--documents", "--sample", "40", "--sample-by", "document",
                       "--seed", "3", "-m", "chrf", "--systems", "HuaweiTSC", "Lan-Bridge")
    assert code == 0, err
    documents = [document for task in json.loads(out.read_text(encoding="utf-8"))["data"] for document in task]
    assert sum(len(doc) for doc in documents) >= 40
    for document in documents:
        rows = [int(item["item_id"].rsplit(":", 1)[1]) - 1 for item in document]
        whole = next(members for members in order.values() if members[0][0] == rows[0])
        assert rows == [r for r, _ in whole]
        assert [item["src"] for item in document] == [text.strip() for _, text in whole]


@pytest.mark.parametrize("more, message", [
    (("--where", "src_words > 1000"), "no segment has src_words > 1000"),
    (("--ask-systems", "C.txt"), "C.txt is not a system of the run (A.txt, B.txt)"),
    (("--documents",), "the run has no documents"),
])
def test_a_campaign_that_cannot_be_asked_is_refused_in_one_line(capsys, tmp_path, more, message):
    code, out, err = cli(capsys, *emoji_run("--ask-humans", tmp_path / "c.json", *more))
    errors = [line for line in err.splitlines() if not line.startswith("bleu-score: advice")]
    assert code == 2 and len(errors) == 1 and message in errors[0]
    assert not (tmp_path / "c.json").exists() and "Traceback" not in err


def test_an_existing_campaign_is_never_replaced_unasked(capsys, tmp_path):
    out = tmp_path / "c.json"
    out.write_text("mine", encoding="utf-8")
    code, _, err = cli(capsys, *emoji_run("--ask-humans", out))
    assert code == 2 and "c.json: exists" in err and out.read_text(encoding="utf-8") == "mine"
    assert cli(capsys, *emoji_run("--ask-humans", out, "--overwrite"))[0] == 0
    assert json.loads(out.read_text(encoding="utf-8"))["campaign_id"] == "c"


def test_campaign_flags_without_ask_humans_are_refused(capsys):
    code, _, err = cli(capsys, *emoji_run("--sample", "3"))
    assert code == 2 and "--sample belongs to --ask-humans" in err


# What two raters say, by line of the run (1-based) and system: a score and the spans (text marked, severity).
# What the raters say, the same words scripts/make_campaign_results.py gave a real Pearmut for the kept files.
SAYS, RESUBMIT = script("make_campaign_results").SAYS, script("make_campaign_results").RESUBMIT


def test_a_campaign_rated_in_a_real_pearmut_comes_back_onto_the_segments_it_asked(capsys, tmp_path,
                                                                                   pearmut_python):
    campaign = tmp_path / "emoji.json"
    assert cli(capsys, *emoji_run("--ask-humans", campaign, "--raters", "2", "-m", "chrf"))[0] == 0
    key = json.loads((tmp_path / "emoji.bleu-gui.json").read_text(encoding="utf-8"))["key"]

    def by_id(document):
        return {f"bleu-gui:{key}:{line}": said for line, said in document.items()}

    says = {"raters": {user: [by_id(doc) for doc in docs] for user, docs in SAYS.items()},
            "resubmit": [[RESUBMIT[0], RESUBMIT[1], by_id(RESUBMIT[2])]]}
    (tmp_path / "says.json").write_text(json.dumps(says, ensure_ascii=False), encoding="utf-8")
    rated = subprocess.run([pearmut_python, str(ROOT / "scripts" / "pearmut_rate.py"), str(campaign),
                            str(tmp_path / "says.json"), str(tmp_path / "out")], capture_output=True, text=True)
    assert rated.returncode == 0, rated.stderr[-3000:]
    # What the ratings mean by the rules (the later submission wins), worked here from SAYS, not read back.
    final = {user: {line: said for doc in docs for line, said in doc.items()} for user, docs in SAYS.items()}
    final["rater01"].update(RESUBMIT[2])
    for results in ("emoji.jsonl", "emoji-download.json"):
        code, out, err = cli(capsys, *emoji_run("--annotations", tmp_path / "out" / results, "--annotations",
                                                campaign, "-m", "esa", "-sl", "-f", "json"))
        assert code == 0, err
        assert "placed by the item ids" in err and "16 of the 20 ratings campaign emoji asked are in; 8 of its 10 segments" in err
        for system in json.loads(out):
            for sentence in system["sentences"]:
                scores = [final[user][sentence["line"]][system["system"]][0] for user in final
                          if sentence["line"] in final[user]]
                if scores:
                    assert sentence["score"] == pytest.approx(sum(scores) / len(scores))
                else:
                    assert sentence["score"] is None and sentence["line"] == 5
    # The spans: rater02's "🌊、山" on A's line 1 is those three characters, though UTF-16 counts the wave as two.
    from bleu_gui.core.inputs.span_ratings import read_span_ratings

    read = read_span_ratings(tmp_path / "out" / "emoji.jsonl")
    marked = {(r.rater, r.system, r.item_id): [r.target[s.start:s.end] for s in r.spans if s.start is not None]
              for r in read.ratings}
    assert marked[("rater02", "A.txt", f"bleu-gui:{key}:1")] == ["🌊、山"]
    assert marked[("rater01", "A.txt", f"bleu-gui:{key}:4")] in (["地球"], ["、", "地球"])
    code, out, err = cli(capsys, *emoji_run("--annotations", tmp_path / "out" / "emoji.jsonl", "--annotations",
                                            campaign, "-m", "chrf", "esa", "--meta-eval", "esa", "-f", "json"))
    assert code == 0, err
    found = json.loads(out)["meta_evaluation"]
    assert (found["segments"], found["left_out"]) == (4, 1)  # the rated segments only: line 5 was asked, not rated


def test_the_results_of_another_campaign_are_refused_naming_it(capsys, tmp_path):
    log = tmp_path / "other.jsonl"
    log.write_text(json.dumps({"user_id": "r", "item_i": 0, "annotation": [{"A.txt": {"score": 50, "error_spans": []}}],
                               "item": [{"src": "x", "tgt": {"A.txt": "今日は晴れ🌞🌊、山に行こう。"},
                                         "item_id": "bleu-gui:0123456789ab:1"}]}) + "\n", encoding="utf-8")
    code, _, err = cli(capsys, *emoji_run("--annotations", log, "-m", "chrf"))
    assert code == 2 and "campaign other were asked about another source" in err
    assert "0123456789ab" in err and len([e for e in err.splitlines() if "advice" not in e]) == 1


def test_of_more_than_four_systems_each_and_its_neighbour_in_the_metrics_ranking_are_estimated(capsys, tmp_path):
    """Five systems: the four pairs of neighbours in the order of their mean sentence BLEU (sacreBLEU's own, the
    oracle), not the ten pairs."""
    from sacrebleu.metrics import BLEU

    d = data_set("wmt21-en-de-3ref")
    src, ref = lines(d / "src.txt")[:40], lines(d / "ref1.txt")[:40]
    systems = {f"s{k}.txt": lines(d / name)[:40] for k, name in enumerate(
        ["sys1.txt", "sys2.txt", "sys3.txt", "ref2.txt", "ref3.txt"])}
    for name, text in {"src.txt": src, "ref.txt": ref, **systems}.items():
        (tmp_path / name).write_text("\n".join(text) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", *(tmp_path / n for n in systems), "--src",
                         tmp_path / "src.txt", "--ask-humans", tmp_path / "five.json")
    assert code == 0, err
    bleu = BLEU(effective_order=True)
    mean = {n: sum(bleu.sentence_score(h, [r]).score for h, r in zip(text, ref)) / len(ref)
            for n, text in systems.items()}
    ranked = sorted(systems, key=lambda n: -mean[n])
    said = [line.strip().split(":")[0] for line in out.splitlines() if " vs " in line]
    assert "(neighbours in its ranking)" in out
    assert said == [f"{a} vs {b}" for a, b in zip(ranked, ranked[1:])]


def test_an_estimate_takes_finite_words_an_hour_and_a_sample_larger_than_the_rows_is_all_of_them(capsys, tmp_path):
    for rate in ("inf", "nan", "-3", "0"):
        with pytest.raises(SystemExit) as refused:
            cli(capsys, *emoji_run("--ask-humans", tmp_path / "c.json", "--words-per-hour", rate))
        err = capsys.readouterr().err
        assert refused.value.code == 2 and "--words-per-hour" in err and not (tmp_path / "c.json").exists(), rate
    code, said, err = cli(capsys, *emoji_run("--ask-humans", tmp_path / "c.json", "--sample", "100"))
    assert code == 0, err
    mapping = json.loads((tmp_path / "c.bleu-gui.json").read_text(encoding="utf-8"))
    assert "at random" not in json.dumps(mapping) and "all 5 (a sample of 100 was asked for)" in said + err
    assert "Infinity" not in (tmp_path / "c.bleu-gui.json").read_text(encoding="utf-8")
