"""Issue 10, conversation quality: the reply guard, the copy penalty, long messages in the window,
and a rolling summary that only says what was said (fast tests, scripted fake engine)."""

from helpers import fake_conversation

from memchat.config import BudgetSettings
from memchat.engine.copy_penalty import CopyPenalty
from memchat.engine.fake import FakeEngine
from memchat.memory.faithful import drop_topic, ends_complete, traceability, untraceable
from memchat.memory.summary import RollingSummary, clip_to_sentences, fold_extractive
from memchat.pipeline.reply_guard import judge, loops_back, similarity
from memchat.prompt.assemble import PromptParts, assemble
from memchat.prompt.budget import split_budget
from memchat.prompt.fit import elide_middle
from memchat.types import Message, ReplyRestarted, TokenStreamed

ENGINE = FakeEngine(n_ctx=1024)


def user(i, text, role="user"):
    return Message(i, 1, role, text, float(i))


# ---- judging a reply --------------------------------------------------------------
def test_a_reply_repeating_an_earlier_one_is_caught_exactly_or_nearly():
    earlier = ["The capital of France is Paris, a city on the Seine known for its museums and cafes."]
    assert judge("The capital of France is Paris, a city on the Seine known for its museums and cafes.", earlier, []).problem == "repeat"
    assert judge("the capital of France is Paris — a city on the Seine known for its museums and its cafes", earlier, []).problem == "repeat"
    assert judge("The user's name is Mia.", ["The user's name is Priya."], []).problem == "repeat"  # a template
    assert judge("The capital of Japan is Tokyo.", ["The capital of France is Paris."], []).ok
    assert judge("", earlier, []).ok


def test_a_reply_that_only_echoes_a_memory_or_the_message_is_an_echo():
    memories = ["The user works as a nurse at the hospital."]
    assert judge("The user works as a nurse at the hospital.", [], memories).problem == "echo"
    assert judge("What's my current job?", [], ["What's my current job?"]).problem == "echo"
    assert judge("You work as a nurse at the hospital, so night shifts must be tiring. Want tips on sleep?",
                 [], memories).ok


def test_similarity_reads_words_not_characters():
    assert similarity("Hello, there!", "hello there") == 1.0
    assert similarity("我喜欢猫", "我喜欢狗") == 0.75
    assert similarity("", "") == 1.0 and similarity("a", "") == 0.0


# ---- the guard in a turn ---------------------------------------------------------------
def test_a_repeated_reply_is_regenerated_before_it_is_final(tmp_path):
    conv = fake_conversation(tmp_path)
    engine = conv.services.engine
    engine.enqueue("Paris is the capital of France and a lovely city.")
    conv.run_turn("What is the capital of France?")
    engine.enqueue("Paris is the capital of France and a lovely city.", "A spider has eight legs.")
    events = []
    finished = conv.run_turn("How many legs does a spider have?", events.append)
    assert finished.reply == "A spider has eight legs."
    restarts = [e for e in events if isinstance(e, ReplyRestarted)]
    assert len(restarts) == 1 and "repeated" in restarts[0].reason
    streamed_after = events[events.index(restarts[0]) + 1 :]
    assert "".join(e.text for e in streamed_after if isinstance(e, TokenStreamed)).strip() == finished.reply
    retry = engine.samplings[-1]
    assert retry.seed != engine.samplings[0].seed and "Paris is the capital of France and a lovely city." in retry.avoid
    assert not [m for m in engine.prompts[-1] if m.role == "assistant"]  # the pattern it copied is left out
    assert [m.content for m in conv.history() if m.role == "assistant"][-1] == "A spider has eight legs."


def test_when_every_attempt_repeats_the_least_similar_one_is_kept(tmp_path):
    conv = fake_conversation(tmp_path)
    engine = conv.services.engine
    engine.enqueue("I am fine, thank you for asking today.")
    conv.run_turn("How are you?")
    engine.enqueue("I am fine, thank you for asking today.", "I am fine, thank you for asking today!",
                   "I am fine, thank you for asking, friend.")
    finished = conv.run_turn("And how are you now?")
    assert finished.reply == "I am fine, thank you for asking, friend."
    assert len(engine.samplings) == 4  # one first attempt, two retries, no more


def test_the_guard_can_be_turned_off(tmp_path):
    conv = fake_conversation(tmp_path, model={"reply_guard": False})
    engine = conv.services.engine
    engine.enqueue("Same words again and again.", "Same words again and again.")
    conv.run_turn("one")
    events = []
    assert conv.run_turn("two", events.append).reply == "Same words again and again."
    assert not [e for e in events if isinstance(e, ReplyRestarted)]


def test_a_long_copy_is_stopped_early_not_generated_to_the_end(tmp_path):
    conv = fake_conversation(tmp_path)
    engine = conv.services.engine
    long_reply = "Here is a long answer that goes on and on about many different things " * 3
    engine.enqueue(long_reply)
    conv.run_turn("Tell me something.")
    engine.enqueue(long_reply, "Something new.")
    events = []
    assert conv.run_turn("Tell me something else.", events.append).reply == "Something new."
    first_attempt = [e for e in events[: events.index(next(e for e in events if isinstance(e, ReplyRestarted)))]
                     if isinstance(e, TokenStreamed)]
    assert len(first_attempt) < len(long_reply.split())


def test_a_reply_that_says_a_sentence_of_its_own_again_is_a_loop():
    said = "I've been thinking of you lately, and it would be wonderful to talk again. "
    assert loops_back(said + "I hope you are well. " + said) == len(said + "I hope you are well. ")
    assert loops_back(said + "I've been thinking of you lately, and it would be") is None  # not finished yet
    assert loops_back("Yes. Yes. Yes. Thanks a lot. Thanks a lot.") is None  # short sentences repeat in chat
    assert loops_back("Add one cup of flour to the bowl. Then add one cup of sugar to the bowl.") is None
    assert loops_back("我觉得你应该早点休息，明天再说吧。我觉得你应该早点休息，明天再说吧。") == 17


def test_a_reply_that_says_two_of_its_sentences_again_with_a_word_changed_is_a_loop():
    """The 135M model's paragraph loop seldom comes back word for word: "family" becomes "friends"."""
    first = "I love spending time with my family on weekends. We often go hiking in the mountains near our home. "
    again = "I love spending time with my friends on weekends. We often go hiking in the hills near our home. "
    between = "It is always a lot of fun for all of us. "
    assert loops_back(first + between + again) == len(first + between)
    # one sentence alike is a list, not a loop; so are steps that differ in more than a word or two
    steps = ("Add one cup of flour to the bowl and stir it well. Then add one cup of sugar to the bowl and stir it "
             "well. Then add one cup of milk to the bowl and stir it well. Bake it for twenty minutes in a hot oven.")
    assert loops_back(steps) is None
    assert loops_back(first + between + "I love spending time with my friends on weekends. Last Sunday we baked "
                      "bread together and it came out beautifully.") is None


def test_a_reply_that_runs_into_one_character_over_and_over_ends_before_the_run():
    """What the 135M model did to a Chinese message: a sentence, then full-width semicolons and ampersands to the
    end of the reply budget."""
    opening = "我在上浴中，你能不能记归我这个小时"
    assert loops_back(opening + "；" * 40 + "！" + "＆" * 30) == len(opening) + 3  # three are kept
    assert loops_back("哈" * 20) == 3  # never an empty reply
    assert loops_back("哈哈哈哈哈哈，太好笑了！") is None  # a laugh is not a run
    assert loops_back("Sure! " + "ha" * 20) is None  # letters and digits: words, code, numbers
    for layout in ("| a | b |\n|------|---------------------------|\n| 1 | 2 |", "zeros = [" + "0, " * 20 + "0]",
                   "# " + "=" * 40, "The max is 0x" + "F" * 16, "1" + ",000" * 8, "Hmm" + "." * 20,
                   "┌" + "─" * 30 + "┐", "First part" + "\n" * 20 + "Second part", "—" * 20):
        assert loops_back(layout) is None, layout


def test_a_looping_reply_ends_where_the_loop_began(tmp_path):
    conv = fake_conversation(tmp_path)
    engine = conv.services.engine
    first = "I've been thinking of you lately, and it would be wonderful to talk again."
    engine.enqueue(" ".join([first, "Take care of yourself."] * 4))
    finished = conv.run_turn("Hi there!")
    assert finished.reply == f"{first} Take care of yourself."
    assert [m.content for m in conv.history() if m.role == "assistant"][-1] == finished.reply
    assert engine.samplings and len(engine.samplings) == 1  # cut, not regenerated


def test_a_reply_that_runs_into_a_degenerate_run_is_cut_while_it_streams(tmp_path):
    conv = fake_conversation(tmp_path)
    engine = conv.services.engine
    engine.enqueue("你好！我记住了。 " + "； " * 200)  # the fake engine streams a word at a time
    events = []
    finished = conv.run_turn("我每天早上沿着运河跑五公里。", events.append)
    assert finished.reply == "你好！我记住了。 ； ； ；"
    streamed = "".join(e.text for e in events if isinstance(e, TokenStreamed))
    assert streamed.count("；") < 40  # stopped near the start of the run, not at the end of the budget
    # the speed the status line shows counts what was decoded, not only what the reply kept
    assert finished.timings.generated_tokens == engine.count(streamed) > finished.tokens_out


def test_copy_penalty_grows_with_the_copied_run():
    penalty = CopyPenalty([[5, 6, 7, 8]], prompt_length=0, allowed=2, multiplier=1.0, base=2.0)
    penalty.feed(5)
    assert penalty.penalties() == {}  # one shared token costs nothing
    penalty.feed(6)
    assert penalty.penalties() == {7: 1.0}
    penalty.feed(7)
    assert penalty.penalties() == {8: 2.0}
    penalty.feed(9)
    assert penalty.penalties() == {}


# ---- one long message in the window ---------------------------------------------------------
def test_elide_middle_keeps_head_and_tail_within_the_exact_limit():
    text = " ".join(f"w{i}" for i in range(500))
    out, cut = elide_middle(text, 60, ENGINE.count)
    assert cut and ENGINE.count(out) <= 60
    assert out.startswith("w0 w1") and out.endswith("w498 w499") and "left out here" in out


def test_one_huge_message_takes_at_most_its_share_and_the_window_keeps_the_recent_turns():
    limits = split_budget(1024, BudgetSettings(reserved_output=200, message_share=0.4))
    paste = "Please read this. " + " ".join(f"line{i} of the pasted text." for i in range(3000))
    window = [user(1, "My name is Ana."), user(2, "Hi Ana!", "assistant"), user(3, paste),
              user(4, "That is a long text.", "assistant")]
    out = assemble(PromptParts("SYS", window=window, user_input="What is my name?"), limits, ENGINE.count,
                   ENGINE.count_messages)
    contents = [m.content for m in out.messages]
    assert "My name is Ana." in contents and "That is a long text." in contents
    shown = next(c for c in contents if c.startswith("Please read this."))
    room = out.report.block("window").limit
    assert ENGINE.count(shown) <= int(0.4 * room) and "left out here" in shown and shown.endswith("line2999 of the pasted text.")
    assert "shortened" in out.report.block("window").cut and not out.overflow
    assert window[2].content == paste  # the stored message is untouched


# ---- the rolling summary ---------------------------------------------------------------------
MESSAGES = [
    user(1, "Hi! My name is Priya and I live in Leeds."),
    user(2, "Nice to meet you, Priya! Do you have two sons?", "assistant"),
    user(3, "My brother Tom lives in Berlin and my sister Mei is a teacher. What do you think?"),
    user(4, "thanks!"),
    user(5, "I have a cat called Biscuit. He is 3 years old. I work as a nurse."),
    user(6, "Summarise this: " + "The committee met on Tuesday and approved the budget. " * 60),
]


def test_the_extractive_summary_says_only_what_the_user_said_and_ends_on_a_sentence():
    summary = fold_extractive("", MESSAGES, 200, ENGINE.count)
    assert summary.splitlines()[0] == "User: My name is Priya and I live in Leeds."
    assert "sons" not in summary and "thanks" not in summary  # never the replies, never chit-chat
    assert "User pasted a long text that begins: Summarise this:" in summary
    assert untraceable(summary, [m.content for m in MESSAGES]) == [] and ends_complete(summary)
    small = fold_extractive("", MESSAGES, 30, ENGINE.count)
    assert ENGINE.count(small) <= 30 and small.startswith("User: ") and ends_complete(small)
    assert "Priya" in fold_extractive(summary, [user(7, "I started the cello in 2019.")], 200, ENGINE.count)  # old first


def test_invented_names_and_numbers_are_untraceable():
    sources = [m.content for m in MESSAGES]
    assert untraceable("The user has two sons, Tom and Max, aged 12.", sources) == ["12", "Max"]
    assert traceability("Priya lives in Leeds.", sources) == 1.0
    assert untraceable("用户的女儿叫安娜。", ["我的女儿叫安娜。"]) == []
    assert untraceable("用户的儿子叫小明。", ["我的女儿叫安娜。"])


def test_a_generated_summary_is_used_only_when_it_traces_to_its_sources():
    engine = FakeEngine()
    summariser = RollingSummary(engine, generative=True)
    engine.enqueue("Priya lives in Leeds. Her brother Tom lives in Berlin.")
    assert summariser.update("", MESSAGES[:3], 200) == "Priya lives in Leeds. Her brother Tom lives in Berlin."
    engine.enqueue("Priya lives in Leeds with her two sons Max and Sam.")
    assert summariser.update("", MESSAGES[:3], 200).startswith("User: My name is Priya")
    assert clip_to_sentences("One thing. Two things here. And a cut-off sen", 50, engine.count) == "One thing. Two things here."


def test_drop_topic_removes_the_sentences_about_it_and_what_refers_back():
    summary = "User: My name is Priya.\nUser: I have a cat called Biscuit. He is 3. I work as a nurse.\nUser: Biscuit sleeps all day."
    kept = drop_topic(summary, "my cat", ["The user has a cat called Biscuit."])
    assert kept == "User: My name is Priya.\nUser: I work as a nurse."


def test_forget_rewrites_the_summary_and_later_folds_leave_the_topic_out(tmp_path):
    conv = fake_conversation(tmp_path, n_ctx=600, budget={"reserved_output": 100})
    conv.run_turn("I have a dog called Bolt. He loves the beach.")
    conv.run_turn("My sister Mei is a teacher in Leeds.")
    for turn in range(4):
        conv.run_turn(f"Could you tell me about topic {turn} " + "with some words " * 12 + "?")
    conv.wait()
    assert "Bolt" in conv.summary
    conv.run_turn("Please forget about my dog Bolt.")
    conv.wait()
    assert "Bolt" not in conv.summary and "Mei" in conv.summary
    for turn in range(4):
        conv.run_turn(f"What about subject {turn} " + "and more words " * 12 + "?")
    conv.wait()
    assert "Bolt" not in conv.summary and "forget" not in conv.summary.lower() and "beach" not in conv.summary
