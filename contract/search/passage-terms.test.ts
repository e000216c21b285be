import { describe, expect, it } from 'vitest';
import { ANSWER_KIND, answerKinds, expectedAnswer } from './passage-terms.ts';

const { duration, number, date } = ANSWER_KIND;

describe('answerKinds', () => {
  it('finds a duration, a number and a date in spoken English', () => {
    expect(answerKinds('And let the loaf cool for at least an hour before cutting.')).toBe(duration);
    expect(answerKinds('a few weeks later')).toBe(duration);
    expect(answerKinds('Twenty-four hours, give or take.') & duration).toBe(duration);
    expect(answerKinds('keeping the brood nest at thirty-four to thirty-five degrees')).toBe(number);
    expect(answerKinds('Pinatubo in 1991 is the textbook success.')).toBe(number | date);
    expect(answerKinds('he received the Nobel Prize in nineteen seventy-three')).toBe(number | date);
    expect(answerKinds('In twenty twenty-three, a group of researchers')).toBe(number | date);
    expect(answerKinds('In August and September the workers drag the drones out')).toBe(date);
  });

  it('finds none in a passage without them', () => {
    expect(answerKinds('The scouts dance for different sites until they reach a consensus.')).toBe(0);
    expect(answerKinds('twenty minutes') & date).toBe(0);
    expect(answerKinds('')).toBe(0);
  });
});

describe('expectedAnswer', () => {
  it('reads the kind of answer from the question\'s opening words', () => {
    expect(expectedAnswer('how long should I wait before slicing a fresh loaf?')).toBe(duration);
    expect(expectedAnswer('  How often do I feed my starter?')).toBe(duration);
    expect(expectedAnswer('how many eggs can the queen lay?')).toBe(number);
    expect(expectedAnswer('How far do bees fly?')).toBe(number);
    expect(expectedAnswer('when did warning people in time save lives?')).toBe(date);
  });

  it('expects nothing of other questions', () => {
    for (const q of ['why do bridges need steel?', 'how do bees find food?', 'what happens when a volcano erupts?', 'is a long nap bad?']) {
      expect(expectedAnswer(q), q).toBe(0);
    }
  });
});
