"""Prompt assembly: one pure function, one budget, never exceeded."""

from dataclasses import replace

import pytest

from memchat.config import BudgetSettings
from memchat.engine.fake import FakeEngine
from memchat.prompt.assemble import PromptParts, assemble
from memchat.prompt.budget import split_budget
from memchat.types import Memory, Message

ENGINE = FakeEngine(n_ctx=1024)


def limits(n_ctx=1024):
    return split_budget(n_ctx, BudgetSettings(reserved_output=200))


def msg(i, text):
    return Message(i, 1, "user" if i % 2 else "assistant", text, float(i))


def mem(i, text, kind="preference"):
    return Memory(i, kind, text, "user", "", 0.5, 0.8, 0, 0, 0)


def run(parts, n_ctx=1024):
    return assemble(parts, limits(n_ctx), ENGINE.count, ENGINE.count_messages)


def test_order_is_stable_prefix_first_then_per_turn_content():
    parts = PromptParts("SYS", notes=["always be brief"], pinned=[mem(1, "The user is vegan.")], summary="Earlier: hi.",
                        window=[msg(1, "hello"), msg(2, "hi there")], recalled=[mem(2, "The user lives in Porto.", "fact")],
                        user_input="where do I live")
    out = run(parts)
    head = out.messages[0].content
    assert head.index("SYS") < head.index("vegan") < head.index("Earlier")  # changed only by a pin or a fold
    assert [m.content for m in out.messages[1:3]] == ["hello", "hi there"]
    notes, recalled = out.messages[3].content, out.messages[4].content  # per turn: after the cached conversation
    assert "always be brief" in notes and "Porto" not in notes  # known after a reply: warmed before recall runs
    assert "[fact] \"The user lives in Porto.\"" in recalled and "quoted data" in recalled
    assert "always be brief" not in head
    assert out.messages[-1].content == "where do I live"
    assert (out.stable, out.noted, len(out.messages)) == (3, 4, 6)


def test_without_notes_the_noted_prefix_is_the_stable_one():
    out = run(PromptParts("SYS", window=[msg(1, "hello")], recalled=[mem(2, "The user has a cat.")], user_input="hi"))
    assert (out.stable, out.noted, len(out.messages)) == (2, 2, 4)
    assert out.messages[2].role == "system" and "cat" in out.messages[2].content


def test_recalled_memories_are_shown_oldest_first_whatever_their_scores():
    older, newer = replace(mem(7, "The user has a cat."), created_at=100.0), replace(mem(3, "The user rows."), created_at=200.0)
    by_score = [run(PromptParts("SYS", recalled=order, user_input="hi")).messages[-2].content
                for order in ([newer, older], [older, newer])]
    assert by_score[0] == by_score[1]
    assert by_score[0].index("cat") < by_score[0].index("rows")
    with_one_more = run(PromptParts("SYS", recalled=[replace(mem(9, "The user sings."), created_at=300.0), newer, older],
                                    user_input="hi")).messages[-2].content
    assert with_one_more.startswith(by_score[0])  # a newer memory joins at the end: the older lines stay cached


def test_the_budget_still_cuts_the_lowest_scored_recalled_memory():
    strong = replace(mem(1, "The user is called Ana. " * 3), created_at=300.0)
    weak = replace(mem(2, "The user once visited Oslo. " * 60), created_at=100.0)
    recalled = run(PromptParts("SYS", recalled=[strong, weak], user_input="hi")).messages[-2].content
    assert "Ana" in recalled and "Oslo" not in recalled


def test_a_new_note_or_another_recall_leaves_the_cached_prefix_unchanged():
    window = [msg(1, "I live in Porto."), msg(2, "Nice city."), msg(3, "x " * 3000), msg(4, "Noted.")]
    before = run(PromptParts("SYS", pinned=[mem(1, "The user is vegan.")], summary="Earlier: hi.", window=window,
                             user_input="hello"))
    after = run(PromptParts("SYS", notes=["from now on answer briefly"], pinned=[mem(1, "The user is vegan.")],
                            summary="Earlier: hi.", window=window, recalled=[mem(2, "The user has a dog.", "fact")],
                            user_input="and now a much longer question " * 20))
    assert before.stable == after.stable == 1 + len(window)
    assert before.messages[:before.stable] == after.messages[:after.stable]  # the long message is cut the same way
    prefix = ENGINE.render(before.messages[:before.stable])
    assert ENGINE.render(after.messages).startswith(prefix[: prefix.rindex("<|assistant|>")])


def test_ledger_adds_up_to_the_exact_prompt_count():
    parts = PromptParts("SYS", notes=["n1"], window=[msg(1, "a b c")], user_input="question")
    out = run(parts)
    assert out.report.prompt_tokens == ENGINE.count_messages(out.messages)
    assert sum(b.tokens for b in out.report.blocks) == out.report.prompt_tokens


@pytest.mark.parametrize("size", [10, 5_000, 50_000])
def test_huge_paste_is_truncated_with_a_notice_never_over_budget(size):
    text = "lorem ipsum dolor " * (size // 18 + 1)
    out = run(PromptParts("SYS", user_input=text[:size]))
    assert out.report.prompt_tokens <= limits().available
    if size > 1000:
        assert "message truncated" in out.messages[-1].content
        assert out.report.block("input").cut


def test_window_overflow_evicts_whole_oldest_messages():
    window = [msg(i, f"message {i} " + "filler " * 30) for i in range(1, 40)]
    out = run(PromptParts("SYS", window=window, user_input="next"))
    assert out.report.prompt_tokens <= limits().available
    assert out.overflow and out.overflow[0].id == 1
    kept_ids = [int(m.content.split()[1]) for m in out.messages[1:-1]]
    assert kept_ids == list(range(len(out.overflow) + 1, 40))
    assert all(m.content.endswith("filler ") for m in out.messages[1:-1])


def test_every_block_respects_its_limit():
    notes = [f"note {i} " + "x " * 20 for i in range(40)]
    pins = [mem(i, f"pinned {i} " + "y " * 20) for i in range(40)]
    out = run(PromptParts("SYS", notes=notes, pinned=pins, summary="s " * 2000, user_input="hi"))
    for block in out.report.blocks:
        if block.name in ("notes", "pinned", "summary", "recalled", "system"):
            assert block.tokens <= block.limit, block
    assert out.report.block("notes").cut and out.report.block("pinned").cut and out.report.block("summary").cut
    assert out.report.prompt_tokens <= limits().available
