package io.omnigraph.engine.read;

/**
 * One binding row flowing through a plan: an entity per variable slot (null while unbound) and,
 * inside a negation, the index of the outer row it was seeded from.
 */
final class Row {
  final Entity[] slots;
  final int seed;

  Row(Entity[] slots, int seed) {
    this.slots = slots;
    this.seed = seed;
  }

  Row with(int slot, Entity e) {
    Entity[] s = slots.clone();
    s[slot] = e;
    return new Row(s, seed);
  }

  Row with(int slot, Entity e, int slot2, Entity e2) {
    Entity[] s = slots.clone();
    s[slot] = e;
    s[slot2] = e2;
    return new Row(s, seed);
  }
}
