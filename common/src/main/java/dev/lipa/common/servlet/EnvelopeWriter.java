package dev.lipa.common.servlet;

import dev.lipa.common.web.Envelope;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/** Writes a filter's own refusal as the platform's envelope (filters run before the exception advice can). */
final class EnvelopeWriter {

  private EnvelopeWriter() {
  }

  static void write(HttpServletResponse response, JsonMapper json, HttpStatus status, String message)
      throws IOException {
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    json.writeValue(response.getOutputStream(), Envelope.error(status, message));
  }
}
