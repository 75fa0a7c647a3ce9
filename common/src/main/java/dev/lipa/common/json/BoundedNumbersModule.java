package dev.lipa.common.json;

import tools.jackson.core.JsonParser;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.jackson.JsonNodeDeserializer;
import tools.jackson.databind.deser.std.DelegatingDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.node.ObjectNode;

/**
 * Makes a number that cannot be read a read error. Jackson reads {@code 1e9999999999} (13 characters, within every
 * length limit) by handing it to {@link java.math.BigDecimal}, whose exponent is an {@code int}: the
 * {@link NumberFormatException} it throws is not a Jackson exception, so Spring answered it with a 500 and a listener
 * treated it as an unknown failure. Every JSON tree the platform reads goes through this module's deserializer.
 */
final class BoundedNumbersModule extends SimpleModule {

  /** The message of the read error, which {@link UnreadableJson} recognises. */
  static final String OUT_OF_RANGE = "Number out of range: its exponent does not fit";

  @SuppressWarnings({"unchecked", "rawtypes"})
  BoundedNumbersModule() {
    super("lipa-bounded-numbers");
    addDeserializer(JsonNode.class, (ValueDeserializer) new Reader(JsonNodeDeserializer.getDeserializer(JsonNode.class)));
    addDeserializer(ObjectNode.class,
        (ValueDeserializer) new Reader(JsonNodeDeserializer.getDeserializer(ObjectNode.class)));
  }

  private static final class Reader extends DelegatingDeserializer {

    Reader(ValueDeserializer<?> standard) {
      super(standard);
    }

    @Override
    protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> standard) {
      return new Reader(standard);
    }

    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context) {
      try {
        return super.deserialize(parser, context);
      } catch (NumberFormatException | ArithmeticException e) {
        // the parser still stands on the number, so the error can name its field
        throw new StreamReadException(parser, OUT_OF_RANGE);
      }
    }
  }
}
