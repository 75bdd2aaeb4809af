"""Build a tiny COMET checkpoint for tests and benchmarks, with no download: run it with a Python that has
unbabel-comet (never the app's).

    python scripts/tiny_comet.py OUT_DIR --kind regression referenceless xcomet --text FILE [FILE ...]

Each kind gets a folder OUT_DIR/KIND holding what a COMET model folder holds (``checkpoints/model.ckpt``,
``hparams.yaml``) and the encoder's folder (``encoder/``: a tiny XLM-R ``config.json`` and a fast tokenizer trained on
the given text files, once for all kinds). The weights are
random (seeded): the scores mean nothing, but they are COMET's own arithmetic on a real checkpoint, so our worker's
numbers can be checked against ``comet.load_from_checkpoint(...).predict(...)``.

Why it is built as it is (facts of unbabel-comet 2.2.7): the encoder's folder is named in ``hparams.yaml`` by its
absolute path, as a trained checkpoint names its Hugging Face encoder; ``tokenizer.json`` is written because
converting a SentencePiece model offline needs a protobuf that COMET's pins forbid; torch >= 2.6 loads checkpoints
weights-only, so the stored hyper-parameters are plain values; random weights need a larger initial scale than
XLM-R's 0.02 for scores that differ between segments (and for xCOMET's word-level head to mark spans).
"""

from __future__ import annotations

import argparse
from pathlib import Path

KINDS = {"regression": "regression_metric", "referenceless": "referenceless_regression_metric",
         "xcomet": "xcomet_metric"}


def train_tokenizer(texts: list[Path], folder: Path, vocab: int) -> None:
    """An XLM-R-style fast tokenizer (Unigram over Metaspace pieces, XLM-R's special tokens) trained on ``texts``."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import XLMRobertaTokenizerFast

    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizers.NFKC()
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=vocab, special_tokens=specials, unk_token="<unk>")
    tokenizer.train([str(t) for t in texts], trainer)
    tokenizer.add_special_tokens(["<mask>"])
    bos, eos = tokenizer.token_to_id("<s>"), tokenizer.token_to_id("</s>")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", bos), ("</s>", eos)])
    fast = XLMRobertaTokenizerFast(tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>",
                                   sep_token="</s>", cls_token="<s>", unk_token="<unk>", pad_token="<pad>",
                                   mask_token="<mask>", model_max_length=512)
    fast.save_pretrained(str(folder))


def encoder_folder(folder: Path, texts: list[Path], hidden: int, layers: int, vocab: int) -> None:
    """The encoder's folder: a tiny XLM-R config and its tokenizer."""
    from transformers import XLMRobertaConfig

    folder.mkdir(parents=True, exist_ok=True)
    train_tokenizer(texts, folder, vocab)
    from transformers import XLMRobertaTokenizerFast
    size = len(XLMRobertaTokenizerFast.from_pretrained(str(folder)))
    XLMRobertaConfig(vocab_size=size, hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=2,
                     intermediate_size=2 * hidden, max_position_embeddings=514, type_vocab_size=1,
                     pad_token_id=1, bos_token_id=0, eos_token_id=2, initializer_range=0.5
                     ).save_pretrained(str(folder))


def build(out: Path, kind: str, encoder_made: Path, hidden: int, layers: int, seed: int) -> Path:
    """Write the model folder ``out`` (see the module), its encoder a copy of ``encoder_made``; the checkpoint's
    path."""
    import shutil

    import torch
    import yaml
    from comet.models import str2model

    out.mkdir(parents=True, exist_ok=True)
    encoder = (out / "encoder").resolve()
    shutil.copytree(encoder_made, encoder, dirs_exist_ok=True)
    torch.manual_seed(seed)
    common = dict(pretrained_model=str(encoder), load_pretrained_weights=False, nr_frozen_epochs=0.0,
                  layer_transformation="softmax", dropout=0.1, encoder_model="XLM-RoBERTa",  # not -XL: tiny
                  keep_embeddings_frozen=True, hidden_sizes=[2 * hidden, hidden])
    if kind == "xcomet":
        model = str2model[KINDS[kind]](**common, word_layer=layers, layer_norm=False,
                                        error_labels=["minor", "major", "critical"])
    else:
        model = str2model[KINDS[kind]](**common)
    with torch.no_grad():  # a larger scale than XLM-R's so that random scores differ between segments
        for name, parameter in model.named_parameters():
            if "estimator" in name or "hidden2tag" in name:
                parameter.normal_(0.0, 2.0 if "hidden2tag" in name else 0.5)
        if kind == "xcomet":  # mostly "O", so that spans end (COMET closes a span at the next "O")
            model.hidden2tag.bias[0] += 6.0
    hparams = {k: (list(v) if isinstance(v, tuple) else v) for k, v in dict(model.hparams).items()}
    hparams["class_identifier"] = KINDS[kind]
    (out / "checkpoints").mkdir(exist_ok=True)
    checkpoint = out / "checkpoints" / "model.ckpt"
    import pytorch_lightning
    torch.save({"state_dict": model.state_dict(), "hyper_parameters": hparams,
                "pytorch-lightning_version": pytorch_lightning.__version__}, checkpoint)
    (out / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")
    return checkpoint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--kind", choices=sorted(KINDS), nargs="+", default=["regression"])
    parser.add_argument("--text", type=Path, nargs="+", required=True, help="text to train the tokenizer on")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--vocab", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    encoder = args.out / "encoder"
    encoder_folder(encoder, args.text, args.hidden, args.layers, args.vocab)
    for kind in args.kind:
        print(build(args.out / kind, kind, encoder, args.hidden, args.layers, args.seed))


if __name__ == "__main__":
    main()
