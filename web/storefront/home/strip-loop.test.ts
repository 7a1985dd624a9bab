import { describe, expect, it } from 'vitest';
import { copiesToFill, rotationFor, slotOrder } from './strip-loop.ts';

describe('rotationFor', () => {
  it('turns the row once the first card is wholly out on the left', () => {
    expect(rotationFor(303.9, 304)).toBe(0);
    expect(rotationFor(304, 304)).toBe(1);
    expect(rotationFor(500, 304)).toBe(1);
  });

  it('brings the last card back when the row is moved right past its start (a tap on the left side)', () => {
    expect(rotationFor(0, 304)).toBe(0);
    expect(rotationFor(-0.1, 304)).toBe(-1);
    expect(rotationFor(-304, 304)).toBe(-1);
  });

  it('never turns a row whose cards have no width yet (not laid out)', () => {
    expect(rotationFor(10, 0)).toBe(0);
    expect(rotationFor(-10, 0)).toBe(0);
  });
});

describe('copiesToFill', () => {
  it('draws the reviews once when they are wider than the strip by a card', () => {
    expect(copiesToFill(60 * 304, 1280, 304)).toBe(1);
    expect(copiesToFill(1584, 1280, 304)).toBe(1);
  });

  it('repeats a few reviews until the row outruns the strip by a card', () => {
    expect(copiesToFill(1583, 1280, 304)).toBe(2);
    expect(copiesToFill(304, 1280, 304)).toBe(6);
    expect(copiesToFill(608, 375, 304)).toBe(2);
  });

  it('draws one copy while nothing is laid out', () => {
    expect(copiesToFill(0, 1280, 304)).toBe(1);
  });
});

describe('slotOrder', () => {
  it('starts at the first slot and wraps around', () => {
    expect(slotOrder(0, 4)).toEqual([0, 1, 2, 3]);
    expect(slotOrder(3, 4)).toEqual([3, 0, 1, 2]);
    expect(slotOrder(0, 1)).toEqual([0]);
    expect(slotOrder(0, 0)).toEqual([]);
  });
});
