"""The accounts' forms: signing up, joining a campaign by its invitation, keeping an account."""

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.password_validation import validate_password
from django.utils.translation import gettext_lazy as _

from campaigns.fields import TextField
from campaigns.models import Campaign, Membership, display_name


class SignupForm(UserCreationForm):
    display_name = TextField(label=_("Your name at the table"), max_length=40, required=False)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)

    def save(self, commit: bool = True):
        user = super().save(commit=False)
        user.first_name = self.cleaned_data.get("display_name", "").strip()
        if commit:
            user.save()
        return user


class KeepAccountForm(forms.Form):
    """A guest picks a username and password, so the account works on another device too.

    An account that already has a password changes it only with the current one: a session
    taken from an unlocked phone must not become the account for good."""

    current_password = forms.CharField(
        label=_("Current password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        strip=False,
    )
    username = forms.CharField(label=_("Username"), max_length=150)
    password = forms.CharField(
        label=_("New password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        min_length=8,
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        if not user.has_usable_password():  # a guest keeping its account has none to give
            del self.fields["current_password"]
            self.fields["password"].label = _("Password")

    def clean_current_password(self) -> str:
        if not self.user.check_password(self.cleaned_data["current_password"]):
            raise forms.ValidationError(_("That is not your current password."))
        return ""

    def clean_username(self) -> str:
        username = self.cleaned_data["username"].strip()
        field = get_user_model()._meta.get_field("username")
        for validator in field.validators:
            validator(username)
        taken = get_user_model().objects.filter(username__iexact=username).exclude(pk=self.user.pk)
        if taken.exists():
            raise forms.ValidationError(_("That username is taken."))
        return username

    def clean_password(self) -> str:
        validate_password(self.cleaned_data["password"], self.user)
        return self.cleaned_data["password"]


def may_take_back(member: Membership) -> bool:
    """A seat the invitation may hand to a new phone: a guest's (no password, so the invitation
    was all it ever had), never the owner's."""
    return not member.is_owner and not member.user.has_usable_password()


class JoinForm(forms.Form):
    """Joining by the invitation under a name. A name already in the campaign is refused, with
    the seats of that name a guest may take back from a new phone (`same_name`); `seat` is the
    one taken back."""

    display_name = TextField(label=_("Your name at the table"), max_length=40)
    seat = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, campaign: Campaign, user: User | AnonymousUser, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.campaign, self.user = campaign, user
        self.same_name: list[Membership] = []

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"].strip()
        if not name:
            raise forms.ValidationError(_("Type the name the others know you by."))
        return name

    def clean(self) -> dict:
        cleaned = super().clean() or {}
        name = cleaned.get("display_name")
        if not name:
            return cleaned
        others = self.campaign.memberships.select_related("user")
        if self.user.is_authenticated:
            others = others.exclude(user=self.user)
        same = [m for m in others if display_name(m.user).casefold() == name.casefold()]
        self.same_name = [m for m in same if may_take_back(m)]
        seat = cleaned.get("seat")
        if seat is not None:
            taken = next((m for m in self.same_name if m.pk == seat), None)
            if taken is None:
                self.add_error(
                    "display_name",
                    _("That seat cannot be taken back from here: pick another name."),
                )
            cleaned["take_back"] = taken
        elif same:
            message = (
                _(
                    "Someone in this campaign is already called “%(name)s”. If that is you on "
                    "another phone, take your seat back; if not, pick another name."
                )
                if self.same_name
                else _("Someone in this campaign is already called “%(name)s”: pick another name.")
            )
            self.add_error("display_name", message % {"name": name})
        return cleaned
