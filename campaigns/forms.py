from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.fields import TextField
from campaigns.models import Membership


class NewCampaignForm(forms.Form):
    name = TextField(label=_("Campaign name"), max_length=80)


class RoleForm(forms.Form):
    member = forms.IntegerField(min_value=1)
    role = forms.ChoiceField(
        choices=[(Membership.Role.PLAYER, _("player")), (Membership.Role.VIEWER, _("viewer"))]
    )


class MemberForm(forms.Form):
    member = forms.IntegerField(min_value=1)


class DeleteForm(forms.Form):
    confirm = forms.CharField(label=_("Type the campaign's name to delete it"), max_length=80)

    def __init__(self, *args, campaign_name: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign_name = campaign_name

    def clean_confirm(self) -> str:
        if self.cleaned_data["confirm"].strip() != self.campaign_name:
            raise forms.ValidationError(_("That is not the campaign's name."))
        return self.cleaned_data["confirm"]


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Campaign file (.json)"))
