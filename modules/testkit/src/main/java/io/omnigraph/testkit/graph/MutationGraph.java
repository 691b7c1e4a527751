package io.omnigraph.testkit.graph;

/**
 * The graph the mutation tests write: people with a {@code @range}, a {@code @unique} and a
 * {@code @check} property, companies, notes without a key, and {@code WorksAt} ({@code @card(0..1)}),
 * {@code Knows} and {@code Mentor} ({@code @card(1..)}) edges, with the {@code .gq} queries they run.
 */
public final class MutationGraph {
  private MutationGraph() {}

  /** The schema (.pg). */
  public static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32? @range(age, 0..150)
        email: String? @unique
        handle: String? @check(handle, "^[a-z]+$")
      }
      node Company {
        title: String @key
      }
      node Note {
        text: String
      }
      edge WorksAt: Person -> Company @card(0..1) {
        since: I32?
      }
      edge Knows: Person -> Person
      edge Mentor: Person -> Person @card(1..)
      """;

  /** The mutations (and one read) the tests name, over {@link #SCHEMA}. */
  public static final String QUERIES = """
      query add_person($name: String, $age: I32?) {
        insert Person { name: $name, age: $age }
      }
      query add_person_email($name: String, $email: String) {
        insert Person { name: $name, email: $email }
      }
      query add_note($text: String) {
        insert Note { text: $text }
      }
      query hire($name: String, $company: String, $since: I32?) {
        insert Person { name: $name }
        insert Company { title: $company }
        insert WorksAt { from: $name, to: $company, since: $since }
      }
      query join($name: String, $company: String) {
        insert WorksAt { from: $name, to: $company }
      }
      query join_twice($name: String, $a: String, $b: String) {
        insert WorksAt { from: $name, to: $a }
        insert WorksAt { from: $name, to: $b }
      }
      query add_and_age($name: String) {
        insert Person { name: $name, age: 1 }
        update Person set { age: 2 } where name = $name
      }
      query birthday_then_thirty($name: String) {
        update Person set { age: 31 } where name = $name
        update Person set { age: 40 } where age = 30
      }
      query set_age($name: String, $age: I32) {
        update Person set { age: $age } where name = $name
      }
      query set_email($name: String, $email: String) {
        update Person set { email: $email } where name = $name
      }
      query set_handle($name: String, $handle: String) {
        update Person set { handle: $handle } where name = $name
      }
      query age_all($from: I32, $to: I32) {
        update Person set { age: $to } where age = $from
      }
      query remove_person($name: String) {
        delete Person where name = $name
      }
      query remove_old($age: I32) {
        delete Person where age >= $age
      }
      query remove_works_at($name: String) {
        delete WorksAt where from = $name
      }
      query remove_mentor($name: String) {
        delete Mentor where from = $name
      }
      query know($a: String, $b: String) {
        insert Knows { from: $a, to: $b }
      }
      query people() {
        match { $p: Person }
        return { $p.name }
      }
      """;
}
