package dev.lipa.infra.deploy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The chart as Helm renders it (helm template, through helm-java), as a list of Kubernetes objects. */
record RenderedChart(String yaml, List<Map<String, Object>> objects) {

  static final String RELEASE = "lipa";
  static final String NAMESPACE = "payments";

  /** Renders the chart with its default values and the given --set overrides. */
  static RenderedChart render(Map<String, Object> sets) {
    TemplateCommand template = new Helm(Repository.chart()).template().withName(RELEASE).withNamespace(NAMESPACE)
        .withKubeVersion("1.31.0");
    sets.forEach(template::set);
    String yaml = template.call();
    return new RenderedChart(yaml, Repository.yamlDocuments(yaml));
  }

  static RenderedChart render() {
    return render(Map.of());
  }

  List<Map<String, Object>> ofKind(String kind) {
    return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
  }

  Optional<Map<String, Object>> find(String kind, String name) {
    return ofKind(kind).stream().filter(o -> name.equals(Repository.at(o, "metadata.name"))).findFirst();
  }

  Map<String, Object> get(String kind, String name) {
    return find(kind, name).orElseThrow(() -> new AssertionError("the chart renders no " + kind + " " + name));
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(Object node, String path) {
    Object value = Repository.at(node, path);
    return value == null ? List.of() : (List<Map<String, Object>>) value;
  }

  @SuppressWarnings("unchecked")
  static <T> List<T> strings(Object node, String path) {
    Object value = Repository.at(node, path);
    return value == null ? List.of() : (List<T>) value;
  }
}
