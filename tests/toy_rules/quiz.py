"""Toy Skirmish's one kind of quiz question: the chance a shot hits."""

from wbk.quiz import Answer, GameQuiz, QuizKind, chance_words

from . import NEEDED, RULE, shot


class HitChance(QuizKind):
    """A squad needs some number: what is its chance to hit?"""

    name = "hit_chance"
    form = "band"
    what = "chance the shot hits"
    rule = RULE
    keys = {"needed": NEEDED}
    readings = ("sixes",)

    def answer(self, question, readings):
        result = shot(question.setting("needed"), **readings)
        return Answer(result.chance, chance_words(result.chance), result.steps, result)

    def ask(self, settings):
        return f"A squad needs {settings['needed']} or more. What is its chance to hit?"

    def draw(self, rng, board):
        return {"needed": rng.randint(2, 7)}


QUIZ = GameQuiz(HitChance)
