"""Write a tiny llama-architecture model with random weights as a GGUF file, for llama-server in the LLM judge's
tests and benchmark: a few hundred KB, loads in milliseconds, says random things — the server's JSON-schema grammar
makes every answer valid JSON of the judge's schema, which is all the tests need of it.

    python scripts/tiny_gguf.py OUT.gguf [--seed N]

The vocabulary is byte-level over printable ASCII, a newline and a tab (GPT-2's byte-to-unicode spelling: a space is
``Ġ``), plus ChatML's two markers as control tokens (``<|im_end|>`` ends an answer). No byte that cannot start valid
UTF-8 is a token: a string the grammar holds open could otherwise never close within the schema's lengths.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

DIM, LAYERS, HEADS, FFN, CONTEXT = 64, 2, 4, 128, 8192


def byte_spelling(byte: int) -> str:
    """GPT-2's spelling of a byte as a token (printable ASCII as itself, the rest shifted past U+0100)."""
    if 0x21 <= byte <= 0x7E:
        return chr(byte)
    shifted = [b for b in range(256) if not 0x21 <= b <= 0x7E and not 0xA1 <= b <= 0xAC and not 0xAE <= b <= 0xFF]
    return chr(256 + shifted.index(byte))


def vocabulary() -> tuple[list[str], list[int]]:
    """The tokens and their types (1 normal, 3 control)."""
    tokens = [byte_spelling(b) for b in (0x09, 0x0A, *range(0x20, 0x7F))]
    return [*tokens, "<|im_start|>", "<|im_end|>"], [1] * len(tokens) + [3, 3]


def write(path: Path, seed: int = 0) -> Path:
    """The model at ``path`` (random weights drawn with ``seed``)."""
    import gguf

    tokens, types = vocabulary()
    rng = np.random.default_rng(seed)
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("bleu-gui tiny random judge")
    writer.add_context_length(CONTEXT)
    writer.add_embedding_length(DIM)
    writer.add_block_count(LAYERS)
    writer.add_feed_forward_length(FFN)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(HEADS)
    writer.add_rope_dimension_count(DIM // HEADS)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_file_type(0)  # all F32
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges([f"{byte_spelling(0x22)} {byte_spelling(0x3A)}"])  # one merge: llama.cpp wants the key
    writer.add_bos_token_id(len(tokens) - 2)
    writer.add_eos_token_id(len(tokens) - 1)
    writer.add_add_bos_token(False)

    def weights(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.1).astype(np.float32)

    writer.add_tensor("token_embd.weight", weights(len(tokens), DIM))
    for i in range(LAYERS):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(DIM, np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            writer.add_tensor(f"blk.{i}.{name}.weight", weights(DIM, DIM))
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(DIM, np.float32))
        writer.add_tensor(f"blk.{i}.ffn_gate.weight", weights(FFN, DIM))
        writer.add_tensor(f"blk.{i}.ffn_up.weight", weights(FFN, DIM))
        writer.add_tensor(f"blk.{i}.ffn_down.weight", weights(DIM, FFN))
    writer.add_tensor("output_norm.weight", np.ones(DIM, np.float32))
    writer.add_tensor("output.weight", weights(len(tokens), DIM))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(write(args.out, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
