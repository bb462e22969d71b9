{{/* The release's base name, short enough that "-coordinator-NNNN" and a worker's "-worker-NN" still fit a DNS label. */}}
{{- define "omb-tx.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "omb-tx.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "omb-tx.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "omb-tx.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component (worker, coordinator, results-reader): pass (list . "worker"). */}}
{{- define "omb-tx.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "omb-tx.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "omb-tx.workerName" -}}
{{- printf "%s-worker" (include "omb-tx.fullname" .) -}}
{{- end -}}

{{- define "omb-tx.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "omb-tx.tokenSecret" -}}
{{- default (printf "%s-token" (include "omb-tx.fullname" .)) .Values.token.existingSecret -}}
{{- end -}}

{{- define "omb-tx.tokenKey" -}}
{{- if .Values.token.existingSecret -}}{{ .Values.token.key }}{{- else -}}token{{- end -}}
{{- end -}}

{{- define "omb-tx.resultsClaim" -}}
{{- default (printf "%s-results" (include "omb-tx.fullname" .)) .Values.results.persistence.existingClaim -}}
{{- end -}}

{{/* The workers' stable host names, WORKER-N.SERVICE.NAMESPACE.svc.DOMAIN, one per replica, as a list. */}}
{{- define "omb-tx.workerHosts" -}}
{{- $worker := include "omb-tx.workerName" . -}}
{{- $hosts := list -}}
{{- range $i := until (int .Values.workers.replicas) -}}
{{- $hosts = append $hosts (printf "%s-%d.%s.%s.svc.%s" $worker $i $worker $.Release.Namespace $.Values.clusterDomain) -}}
{{- end -}}
{{- join "," $hosts -}}
{{- end -}}

{{/* bin/benchmark --workers: the workers' URLs in ordinal order (OMB's split: the first half produce). */}}
{{- define "omb-tx.workerUrls" -}}
{{- $urls := list -}}
{{- range $host := splitList "," (include "omb-tx.workerHosts" .) -}}
{{- $urls = append $urls (printf "http://%s:%d" $host (int $.Values.workers.port)) -}}
{{- end -}}
{{- join "," $urls -}}
{{- end -}}

{{/* Where the pods find their files. */}}
{{- define "omb-tx.tokenFile" -}}/var/run/secrets/omb-tx/token{{- end -}}
{{- define "omb-tx.driverFile" -}}/etc/omb-tx/driver/driver.yaml{{- end -}}
{{- define "omb-tx.workloadFile" -}}/etc/omb-tx/workload/workload.yaml{{- end -}}
{{- define "omb-tx.resultsDir" -}}/results{{- end -}}

{{/* The pods' own volumes: the token, and a writable /tmp under a read-only root. */}}
{{- define "omb-tx.tokenVolume" -}}
- name: token
  secret:
    secretName: {{ include "omb-tx.tokenSecret" . }}
    defaultMode: 0440
    items:
      - key: {{ include "omb-tx.tokenKey" . }}
        path: token
{{- end -}}
