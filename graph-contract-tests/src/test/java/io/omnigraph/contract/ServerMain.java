package io.omnigraph.contract;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.server.OmnigraphServer;
import io.omnigraph.server.Tokens;
import java.util.Map;

/**
 * A server in a child JVM for the fault tests: {@code ServerMain <graph root> <token>} opens the graph
 * (running the recovery sweep), serves it as {@code g} on 127.0.0.1, any free port, and prints
 * {@code OMNIGRAPH_LISTEN_ADDR=<host:port>}. It is killed, never stopped.
 */
public final class ServerMain {
  private ServerMain() {}

  public static void main(String[] args) throws Exception {
    Graph graph = Omnigraph.open(args[0]);
    OmnigraphServer server = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("g", graph)
        .tokens(Tokens.of(Map.of("ingest", args[1]))).errorLog(System.err::println).start();
    System.out.println("OMNIGRAPH_LISTEN_ADDR=" + server.address().getHostString() + ":" + server.address().getPort());
    System.out.flush();
    server.join();
  }
}
