"""Toy Skirmish's one kind of quiz question: the chance a shot hits."""

from toy_rules import RULE, shot
from wbk.quiz import Answer, GameQuiz, QuizKind, chance_words


def _hit_chance(question, readings) -> Answer:
    result = shot(question.setting("needed"), **readings)
    return Answer(result.chance, chance_words(result.chance), result.steps, result)


QUIZ = GameQuiz(
    kinds={
        "hit_chance": QuizKind(
            "band",
            ("needed",),
            {},
            _hit_chance,
            lambda rng, board: {"needed": rng.randint(2, 7)},
            what="chance the shot hits",
            rule=RULE,
            ask=lambda s: f"A squad needs {s['needed']} or more. What is its chance to hit?",
            readings=("sixes",),
        )
    }
)
