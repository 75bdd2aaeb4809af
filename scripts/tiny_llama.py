"""Write a tiny random-weight Llama (Hugging Face layout) for vLLM's CPU build to load offline: a byte-level BPE
tokenizer trained on the given texts, a chat template, and weights drawn at random (no download, nothing learnt).

    python scripts/tiny_llama.py OUT_DIR --text FILE [FILE ...]

Head dimension 32 (vLLM's CPU attention takes only some sizes); run in a Python that has vLLM (the tests make one
in the user's cache)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

CHAT_TEMPLATE = ("{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
                 "{% if add_generation_prompt %}<|assistant|>{% endif %}")
SPECIAL = ["<unk>", "<s>", "</s>", "<|end|>", "<|system|>", "<|user|>", "<|assistant|>"]


def tokenizer(texts: list[str], out: Path) -> int:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=2000, special_tokens=SPECIAL,
                                                       initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>", eos_token="</s>",
                                   pad_token="</s>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(out)
    return tok.get_vocab_size()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--text", nargs="+", required=True)
    args = parser.parse_args()
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    texts = [line for f in args.text for line in Path(f).read_text("utf-8").splitlines() if line.strip()]
    vocab = tokenizer(texts, out)
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=vocab, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, head_dim=32, max_position_embeddings=4096,
                         bos_token_id=1, eos_token_id=2, pad_token_id=2, tie_word_embeddings=False)
    LlamaForCausalLM(config).to(torch.float32).save_pretrained(out, safe_serialization=True)
    (out / "generation_config.json").write_text(json.dumps({"bos_token_id": 1, "eos_token_id": 2}))
    print(out)


if __name__ == "__main__":
    main()
