package io.omnigraph.engine.testing;

import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.recovery.RecoverySidecar.AuthorityToken;
import io.omnigraph.engine.recovery.RecoverySidecar.ConfirmedUpdate;
import io.omnigraph.engine.recovery.RecoverySidecar.EffectPhase;
import io.omnigraph.engine.recovery.RecoverySidecar.Lineage;
import io.omnigraph.engine.recovery.RecoverySidecar.ProtocolV3;
import io.omnigraph.engine.recovery.RecoverySidecar.TableEffect;
import io.omnigraph.engine.recovery.RecoverySidecar.TableOutcome;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import io.omnigraph.engine.recovery.RecoverySidecar.TableUpdateSlot;
import io.omnigraph.engine.recovery.RecoverySidecar.TransactionIdentity;
import io.omnigraph.engine.recovery.RecoverySidecar.WriterKind;
import java.util.List;

/** A recovery sidecar of a one-table mutation, armed and confirmed, with every field set. */
public final class SidecarSamples {
  private SidecarSamples() {}

  /** The graph root the sample's table paths are under. */
  public static final String ROOT = "s3://bkt/g1/";
  /** The sample's one table ({@code node:Person}). */
  public static final TableIdentity PERSON = new TableIdentity(3, 4);
  /** The sample's operation id. */
  public static final String ID = "01JZ8Q3V7K2M4N6P8R0T2W4Y6A";

  /** @return the sidecar as written before any table commit */
  public static RecoverySidecar armed() {
    return new RecoverySidecar(ID, 1752480000123456L, null, "svc-ingest", WriterKind.MUTATION,
        List.of(new TablePin(PERSON, "node:Person", ROOT + "nodes/0000000000000003-0000000000000004", 12, 13, null,
            null)),
        new ProtocolV3(new AuthorityToken("{\"branch\":\"main\"}", "01JZ8PZZ0000000000000000AB",
            "01JY0000000000000000000000", "sha256:9f2c", 2),
            new Lineage("01JZ8Q3V80000000000000000C", null, "svc-ingest", null, 1752480000123999L, "m"),
            "01JZ8Q3V80000000000000000D", null, EffectPhase.ARMED,
            List.of(new TableEffect(PERSON, "node:Person", new TransactionIdentity(12, "6f1e-uuid"), null)),
            List.of(new TableUpdateSlot(PERSON, "node:Person", 12, null, null))));
  }

  /** @return the same sidecar after its table commit was confirmed */
  public static RecoverySidecar confirmed() {
    RecoverySidecar a = armed();
    ProtocolV3 p = a.protocol();
    return a.with(List.of(a.tables().get(0).confirmed(13)), new ProtocolV3(p.authority(), p.lineage(),
        p.rollbackGraphCommitId(), List.of(new TableOutcome("node:Person", 13, 12)), EffectPhase.EFFECTS_CONFIRMED,
        List.of(new TableEffect(PERSON, "node:Person", new TransactionIdentity(12, "6f1e-uuid"),
            new TransactionIdentity(12, "6f1e-uuid"))),
        List.of(new TableUpdateSlot(PERSON, "node:Person", 12, null,
            new ConfirmedUpdate(13, null, 1042, "{\"manifest_path\":\"x\",\"naming_scheme\":\"V2\"}")))));
  }
}
