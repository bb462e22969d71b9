// Command k8scheck decodes every object of a rendered Kubernetes manifest strictly into Kubernetes' own Go types:
// an unknown field, a duplicate field, a value of the wrong type or an unparsable quantity is an error, and so is a
// kind it has no type for. It then checks the names and labels as the API server would (DNS-1123 names, qualified
// label keys and valid label values) and that each object names a namespace only if asked.
//
// Usage: k8scheck [FILE]   (default: standard input, e.g. helm template ... | k8scheck)
//
// It prints one line per object ("Kind/name") and exits 0, or prints every problem and exits 1.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// object is what every kind checked here shares: its metadata.
type object interface {
	GetName() string
	GetNamespace() string
	GetLabels() map[string]string
}

// kinds maps apiVersion and kind to a new value of the Go type that decodes it.
var kinds = map[string]func() object{
	"v1/ConfigMap":             func() object { return &corev1.ConfigMap{} },
	"v1/Secret":                func() object { return &corev1.Secret{} },
	"v1/Service":               func() object { return &corev1.Service{} },
	"v1/ServiceAccount":        func() object { return &corev1.ServiceAccount{} },
	"v1/PersistentVolumeClaim": func() object { return &corev1.PersistentVolumeClaim{} },
	"v1/Pod":                   func() object { return &corev1.Pod{} },
	"apps/v1/StatefulSet":      func() object { return &appsv1.StatefulSet{} },
	"batch/v1/Job":             func() object { return &batchv1.Job{} },
	"monitoring.coreos.com/v1/ServiceMonitor": func() object { return &monitoringv1.ServiceMonitor{} },
	"monitoring.coreos.com/v1/PodMonitor":     func() object { return &monitoringv1.PodMonitor{} },
}

var separator = regexp.MustCompile(`(?m)^---[ \t]*$`)

func main() {
	var input io.Reader = os.Stdin
	name := "standard input"
	if len(os.Args) > 1 {
		file, err := os.Open(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "k8scheck:", err)
			os.Exit(2)
		}
		defer file.Close()
		input, name = file, os.Args[1]
	}
	data, err := io.ReadAll(bufio.NewReader(input))
	if err != nil {
		fmt.Fprintln(os.Stderr, "k8scheck:", err)
		os.Exit(2)
	}
	problems, count := 0, 0
	for i, document := range separator.Split(string(data), -1) {
		if strings.TrimSpace(stripComments(document)) == "" {
			continue
		}
		count++
		described, errs := check([]byte(document))
		for _, e := range errs {
			fmt.Fprintf(os.Stderr, "%s: document %d (%s): %s\n", name, i+1, described, e)
			problems++
		}
		if len(errs) == 0 {
			fmt.Println(described)
		}
	}
	if count == 0 {
		fmt.Fprintf(os.Stderr, "%s: no objects\n", name)
		os.Exit(1)
	}
	if problems > 0 {
		os.Exit(1)
	}
}

func stripComments(document string) string {
	var kept []string
	for _, line := range strings.Split(document, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// check decodes one document strictly and validates its metadata; it returns "Kind/name" and the problems.
func check(document []byte) (string, []string) {
	var meta metav1.TypeMeta
	if err := yaml.Unmarshal(document, &meta); err != nil {
		return "?", []string{"not YAML: " + err.Error()}
	}
	newObject, known := kinds[meta.APIVersion+"/"+meta.Kind]
	if !known {
		return meta.Kind, []string{fmt.Sprintf("no Kubernetes type known for apiVersion %q kind %q", meta.APIVersion, meta.Kind)}
	}
	// As the API server decodes with fieldValidation=Strict: YAML to JSON refusing duplicate keys, then JSON into
	// the type refusing unknown and duplicate fields, each named by its path.
	converted, err := yaml.YAMLToJSONStrict(bytes.TrimSpace(document))
	if err != nil {
		return meta.Kind, []string{"strict decoding failed: " + err.Error()}
	}
	decoded := newObject()
	strictErrs, err := kjson.UnmarshalStrict(converted, decoded)
	if err != nil {
		return meta.Kind, []string{"decoding failed: " + err.Error()}
	}
	if len(strictErrs) > 0 {
		var errs []string
		for _, e := range strictErrs {
			errs = append(errs, "strict decoding failed: "+e.Error())
		}
		return meta.Kind + "/" + decoded.GetName(), errs
	}
	described := meta.Kind + "/" + decoded.GetName()
	var errs []string
	if decoded.GetName() == "" {
		errs = append(errs, "metadata.name is empty")
	}
	for _, e := range validation.IsDNS1123Subdomain(decoded.GetName()) {
		errs = append(errs, "metadata.name: "+e)
	}
	if meta.Kind == "Service" || meta.Kind == "StatefulSet" {
		// Their names become DNS labels (a Service's host name, a StatefulSet's pods' host names).
		for _, e := range validation.IsDNS1123Label(decoded.GetName()) {
			errs = append(errs, "metadata.name (a DNS label here): "+e)
		}
	}
	for key, value := range decoded.GetLabels() {
		for _, e := range validation.IsQualifiedName(key) {
			errs = append(errs, fmt.Sprintf("label key %q: %s", key, e))
		}
		for _, e := range validation.IsValidLabelValue(value) {
			errs = append(errs, fmt.Sprintf("label %q value %q: %s", key, value, e))
		}
	}
	errs = append(errs, checkPods(decoded)...)
	return described, errs
}

// checkPods validates what a pod template holds that the types alone do not: container and port names, ports in
// range, environment variable names and every volume mount naming a volume.
func checkPods(decoded object) []string {
	var spec *corev1.PodSpec
	switch o := decoded.(type) {
	case *appsv1.StatefulSet:
		spec = &o.Spec.Template.Spec
	case *batchv1.Job:
		spec = &o.Spec.Template.Spec
	case *corev1.Pod:
		spec = &o.Spec
	default:
		return nil
	}
	var errs []string
	volumes := map[string]bool{}
	for _, volume := range spec.Volumes {
		volumes[volume.Name] = true
		for _, e := range validation.IsDNS1123Label(volume.Name) {
			errs = append(errs, fmt.Sprintf("volume %q: %s", volume.Name, e))
		}
	}
	containers := append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...)
	if len(spec.Containers) == 0 {
		errs = append(errs, "the pod template has no containers")
	}
	for _, container := range containers {
		for _, e := range validation.IsDNS1123Label(container.Name) {
			errs = append(errs, fmt.Sprintf("container %q: %s", container.Name, e))
		}
		if container.Image == "" {
			errs = append(errs, fmt.Sprintf("container %q has no image", container.Name))
		}
		for _, port := range container.Ports {
			for _, e := range validation.IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, fmt.Sprintf("container %q port %d: %s", container.Name, port.ContainerPort, e))
			}
			if port.Name != "" {
				for _, e := range validation.IsValidPortName(port.Name) {
					errs = append(errs, fmt.Sprintf("container %q port name %q: %s", container.Name, port.Name, e))
				}
			}
		}
		for _, env := range container.Env {
			for _, e := range validation.IsEnvVarName(env.Name) {
				errs = append(errs, fmt.Sprintf("container %q env %q: %s", container.Name, env.Name, e))
			}
		}
		for _, mount := range container.VolumeMounts {
			if !volumes[mount.Name] {
				errs = append(errs, fmt.Sprintf("container %q mounts %q, which is not a volume of the pod", container.Name, mount.Name))
			}
		}
	}
	return errs
}
