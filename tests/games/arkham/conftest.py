import pytest

from campaigns.models import Membership
from tests.games.arkham.helpers import make_arkham


@pytest.fixture
def ark(owner, player):
    made = make_arkham(owner)
    Membership.objects.create(campaign=made, user=player, role=Membership.Role.PLAYER)
    return made
