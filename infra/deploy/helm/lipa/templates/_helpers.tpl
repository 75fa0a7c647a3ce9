{{/* The labels of every object of the release; lipa.selector is the subset that selects one service's pods. */}}
{{- define "lipa.labels" -}}
app.kubernetes.io/part-of: lipa
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- with .name }}
app.kubernetes.io/name: {{ . }}
{{- end }}
{{- end -}}

{{- define "lipa.selector" -}}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/name: {{ .name }}
{{- end -}}

{{/* The object name of a service: <release>-<service>, unless the release is named lipa. */}}
{{- define "lipa.fullname" -}}
{{- if eq .root.Release.Name "lipa" -}}{{ .name }}{{- else -}}{{ printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{/* The topics file, declared once for ./platform and this chart. */}}
{{- define "lipa.topics" -}}
{{- .Files.Get "topics.yaml" -}}
{{- end -}}

{{/* The most replicas a service may have: its maxReplicas, capped by the partitions of every topic one of its consumer
     groups reads (a replica beyond them would get no partition). */}}
{{- define "lipa.maxReplicas" -}}
{{- $topics := fromYaml (include "lipa.topics" .root) -}}
{{- $cap := int .service.maxReplicas -}}
{{- range $topic := $topics.topics -}}
{{- $partitions := int (default $topics.defaults.partitions $topic.partitions) -}}
{{- range $group := $topic.consumerGroups -}}
{{- if and (has $group $.service.consumerGroups) (lt $partitions $cap) -}}
{{- $cap = $partitions -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $cap -}}
{{- end -}}

{{/* The Secret every service reads its secrets from. */}}
{{- define "lipa.secretName" -}}
{{- default (printf "%s-secrets" .Release.Name) .Values.secrets.existingSecret -}}
{{- end -}}
