/*
 * Starts DynamoDB Local listening on 127.0.0.1 only. Its command line has no host option: its
 * DynamoDBProxyServer builds a Jetty Server(port), whose one connector binds every interface, so anyone
 * on the network could read and change the local data (webhook tokens, API key hashes) without any
 * authentication. This launcher builds the server from DynamoDB Local's own command-line parser, sets
 * the connector's host before starting it, and checks the bound address after: it exits rather than
 * serve on anything but loopback.
 *
 * Run in Java's source-file mode (JDK 11+: compiled in memory, nothing written to disk), with
 * DynamoDBLocal.jar on the class path; `scripts/local/emulators.ts` builds the command. It never
 * configures DynamoDB Local's telemetry, so none is sent.
 */
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public final class DynamoDbLoopback {
  private static final String HOST = "127.0.0.1";

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Connector[] connectors = ((Server) field.get(proxy)).getConnectors();
    if (connectors.length == 0) refuse(proxy, "DynamoDB Local has no connector to bind");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector serverConnector)) {
        refuse(proxy, "unexpected connector " + connector.getClass().getName());
        return;
      }
      serverConnector.setHost(HOST);
    }
    // safeStart, not start: start() sends a telemetry event and swallows a failure to bind.
    proxy.safeStart();
    for (Connector connector : connectors) {
      Object transport = ((ServerConnector) connector).getTransport();
      boolean loopback =
          transport instanceof ServerSocketChannel channel
              && channel.getLocalAddress() instanceof InetSocketAddress address
              && address.getAddress().isLoopbackAddress();
      if (!loopback) refuse(proxy, "DynamoDB Local is not bound to loopback only: " + transport);
    }
    System.out.println("DynamoDB Local listens on " + HOST + " only.");
    proxy.join();
  }

  private static void refuse(DynamoDBProxyServer proxy, String reason) throws Exception {
    System.err.println("Refusing to serve: " + reason);
    proxy.stop();
    System.exit(1);
  }
}
