package flashclaim.store.firestore;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.MethodDescriptor;

/** A client interceptor that shows each message the Firestore client sends to {@link #sent}. */
public abstract class SentMessages implements ClientInterceptor {

  /** Called with each request message, before it is sent. */
  protected abstract void sent(Object message);

  @Override
  public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(
      MethodDescriptor<ReqT, RespT> method, CallOptions options, Channel next) {
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void sendMessage(ReqT message) {
        sent(message);
        super.sendMessage(message);
      }
    };
  }
}
