package io.ombtx.runner.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one rule for secret settings, wherever a setting is printed or stored. */
class SecretsTest {

    @Test
    void passwordsKeysTokensJaasAndUserInfoAreSecret() {
        for (String key : List.of(
                "ssl.keystore.password",
                "ssl.key.password",
                "ssl.truststore.password",
                "ssl.keystore.key",
                "sasl.jaas.config",
                "listener.name.sasl_ssl.plain.sasl.jaas.config",
                "basic.auth.user.info",
                "sasl.oauthbearer.client.credentials.client.secret",
                "delegation.token.secret.key",
                "adminPassword")) {
            assertTrue(Secrets.isSecret(key), key);
        }
        for (String key : List.of("ssl.keystore.location", "num.network.threads", "acks", "bootstrap.servers")) {
            assertFalse(Secrets.isSecret(key), key);
        }
    }

    @Test
    void aRedactedCopyKeepsOrderAndPlainValues() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("num.io.threads", "8");
        settings.put("ssl.keystore.password", "hunter2");
        Map<String, String> shown = Secrets.redacted(settings);
        assertEquals(List.of("num.io.threads", "ssl.keystore.password"), List.copyOf(shown.keySet()));
        assertEquals("8", shown.get("num.io.threads"));
        assertEquals(Secrets.REDACTED, shown.get("ssl.keystore.password"));
    }
}
