package io.omnigraph.engine.read;

import io.omnigraph.engine.schema.PropertyType;
import java.util.Set;
import java.util.function.Function;

/**
 * A compiled expression over a binding row's slots: its static type and how to compute it.
 *
 * @param type the value type (null for a node variable compared by id, see {@link #nodeVar})
 * @param nullable whether the value can be null
 * @param fn computes the value (engine representation) from the slots
 * @param vars the bindings the expression reads
 * @param text the expression as written, for plans and messages
 * @param nodeVar whether this is a bare node variable (its value is the id)
 */
record Val(PropertyType type, boolean nullable, Function<Entity[], Object> fn, Set<Binding> vars, String text,
    boolean nodeVar) {}
