# Copyright (c) kickstart.pwpolicy contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fixtures of the filter and test plugins' tests."""

import pytest
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultLib, VaultSecret

try:  # ansible-core 2.19 and later: vaulted values decrypt with the ambient secrets
    from ansible.parsing.vault import VaultSecretsContext
except ImportError:
    VaultSecretsContext = None


@pytest.fixture
def vault(monkeypatch):
    """Returns make(plaintext, vault_password=b'right') -> a vaulted value as the running core loads it."""
    secrets = [("default", VaultSecret(b"right"))]
    loader = DataLoader()
    loader.set_vault_secrets(secrets)
    if VaultSecretsContext is not None:
        monkeypatch.setattr(VaultSecretsContext, "_current", VaultSecretsContext(secrets))

    def make(plaintext, vault_password=b"right"):
        ciphertext = VaultLib([("default", VaultSecret(vault_password))]).encrypt(plaintext)
        if isinstance(ciphertext, bytes):
            ciphertext = ciphertext.decode()
        document = "value: !vault |\n  %s\n" % ciphertext.strip().replace("\n", "\n  ")
        return loader.load(document)["value"]

    return make
