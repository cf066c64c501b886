import pytest

from campaigns.models import Membership
from tests import factories


@pytest.fixture
def case(owner, player):
    return factories.campaign("noir", owner=owner, members={player: Membership.Role.PLAYER})
